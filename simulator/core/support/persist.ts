// Where stores report their changes: put() the record's latest value (plain JSON data) after each change. In
// durable mode (--state-dir, --database-url) the database's sink, which does no I/O at the call (the HTTP edge waits
// for the commit before answering); in every mode the memory ceiling's tally (runtime/memory-ceiling.ts), which
// weighs every record held.
export interface Persist {
  put(kind: string, id: string, value: unknown): void;
  delete(kind: string, id: string): void;
}

/** The kind of settings records (control-API exchange-rate overrides, rate-limit settings), keyed by setting name. */
export const SETTING_KIND = 'setting';

/**
 * Puts one stored record back into its store as it is in the database, without reporting it again: `value` is the
 * record, `undefined` when it is gone. The durable state calls it to undo a batch the database refused (each record
 * back to its value before the batch) and to apply what another process sharing the database committed. The store
 * keeps its indexes and timers right; `remote` says the change was made by another process (work it started, such
 * as a webhook attempt, stays that process's).
 */
export type ApplyRecord = (id: string, value: unknown, origin: { remote: boolean }) => void;
