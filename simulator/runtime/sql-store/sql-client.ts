// What the SQL stores need of a Postgres connection: parameterised queries, transactions, close. PGlite (embedded,
// `pglite-client.ts`) satisfies it today; a server client (`pg`) can satisfy it the same way, so the stores speak
// one dialect, Postgres, to both engines.
export interface SqlResult<Row> {
  rows: Row[];
  /** Rows an INSERT, UPDATE or DELETE changed. */
  affectedRows: number;
}

export interface SqlQueries {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<Row>>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlQueries {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Replaces the connection with a fresh one on the same data (an embedded engine: a new instance on its directory);
   * rejects while the data cannot be opened (later uses then fail until a reopen succeeds). Absent: a server client
   * (its pool reconnects by itself).
   */
  reopen?(): Promise<void>;
  /**
   * Calls `heard` for every notification on `channel` (Postgres LISTEN, on a connection of its own that is opened
   * again whenever it drops; `heard` is also called with undefined after each reconnect, since notifications sent
   * meanwhile are lost). Returns the stop. Absent: an embedded engine, which no other process writes.
   */
  listen?(channel: string, heard: (payload: string | undefined) => void): () => Promise<void>;
}

/** Postgres' SQLSTATE for a unique index refusing a row. */
export const UNIQUE_VIOLATION = '23505';

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
