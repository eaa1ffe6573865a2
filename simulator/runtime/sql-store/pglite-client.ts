// Embedded Postgres (PGlite: Postgres compiled to WebAssembly, no server, no native build) as a SqlClient: in memory,
// or in a data directory that survives the process (`--state-dir` once the service runs on it). A directory PGlite
// cannot open is one sentence naming it, never a stack.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { SqlClient, SqlQueries, SqlResult } from './sql-client.ts';

export class DatabaseOpenError extends Error {}

function queries(db: PGlite | Transaction): SqlQueries {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<SqlResult<Row>> {
      const result = await db.query<Row>(sql, params);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql);
    },
  };
}

/** Opens PGlite in `dataDir` (made on first use, which runs initdb) or, without one, in memory. */
export async function openPglite(dataDir?: string): Promise<SqlClient> {
  let db: PGlite;
  try {
    db = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
    await db.waitReady;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseOpenError(`cannot open the database in ${dataDir ?? 'memory'}: ${reason}`);
  }
  return {
    ...queries(db),
    transaction: (work) => db.transaction((tx) => work(queries(tx))),
    close: () => db.close(),
  };
}
