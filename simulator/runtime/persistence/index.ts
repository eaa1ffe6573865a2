export { openStateDir, StateDirError, type OpenStateDirOptions } from './state-dir.ts';
export { DatabaseOpenError } from '../sql-store/pglite-client.ts';
export { SqlDurableState, StorageUnavailableError } from '../sql-store/sql-durable-state.ts';
export type { DurableState } from './durable-state.ts';
export { DEFAULT_DATABASE_POOL_SIZE, openDatabaseUrl } from './database-url.ts';
