// A reset across every process on one database. `reset` empties the tables and writes one row, the sandbox's new
// generation (a random id), in the same transaction under the write lock; it gets a change number like any row, so
// every other process meets it in its next catch-up. A process that meets a generation other than its own drops
// everything it holds (records, pending changes), reads the database again and is rebuilt as a fresh start on that
// database would be (runtime/server.ts), before it answers the request that found the reset.
import type { SqlClient, SqlQueries } from './sql-client.ts';
import { type Change, latestChange, takeWriteLock, writeChange } from './sql-changes.ts';

/** The record that names the sandbox's generation: kind and id. */
export const GENERATION_KIND = 'sandbox';
export const GENERATION_ID = 'generation';

/** The generation a generation row names (undefined: the database was never reset). */
export function generationOf(body: string | null | undefined): string | undefined {
  if (!body) return undefined;
  const id = (JSON.parse(body) as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/** Another process reset the sandbox: this process's state is of the previous generation and is being replaced. */
export class SandboxResetError extends Error {
  constructor() {
    super('the sandbox was reset by another simulator sharing the database; this process is starting afresh');
  }
}

/** Every table the state lives in: a reset empties them all. */
const STATE_TABLES = 'payments, webhook_deliveries, records, tombstones, rate_limit_counters, user_operation_leases';

/** Empties the state and writes the new generation, under the write lock; returns the generation row's change number. */
export async function resetDatabase(db: SqlClient, generation: string): Promise<number> {
  return db.transaction(async (tx) => {
    await takeWriteLock(tx);
    await tx.exec(`TRUNCATE ${STATE_TABLES}`);
    const row: Change = { kind: GENERATION_KIND, id: GENERATION_ID, value: { id: generation }, deleted: false };
    return writeChange(tx, row);
  });
}

/** Every record of the database as JSON text, kind -> id -> text, with the latest change number; read under the write lock. */
export interface StateSnapshot {
  texts: Map<string, Map<string, string>>;
  latest: number;
}

export async function readState(db: SqlClient): Promise<StateSnapshot> {
  return db.transaction(async (tx: SqlQueries) => {
    await takeWriteLock(tx);
    const texts = new Map<string, Map<string, string>>();
    const read = (kind: string, rows: { id: string; body: string }[]): void => {
      let into = texts.get(kind);
      if (!into) texts.set(kind, (into = new Map()));
      for (const row of rows) into.set(row.id, row.body);
    };
    const records = await tx.query<{ kind: string; id: string; body: string }>(
      'SELECT kind, id, body::text AS body FROM records ORDER BY pos',
    );
    for (const row of records.rows) read(row.kind, [row]);
    read(
      'payment',
      (await tx.query<{ id: string; body: string }>('SELECT id, body::text AS body FROM payments ORDER BY created_at, id')).rows,
    );
    read(
      'delivery',
      (await tx.query<{ id: string; body: string }>('SELECT id, body::text AS body FROM webhook_deliveries ORDER BY pos')).rows,
    );
    return { texts, latest: await latestChange(tx) };
  });
}
