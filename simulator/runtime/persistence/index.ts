export { Journal, StateDirError, SNAPSHOT_FILE, JOURNAL_FILE, type JournalOptions, type StateRecords } from './journal.ts';
export type { DurableState } from './durable-state.ts';
