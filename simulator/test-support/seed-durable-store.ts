// Fills a durable store (a --state-dir directory or a Postgres database) with many payments fast, for restart
// benchmarks and tests. The records are the simulator's own: a simulator in memory makes the payments (fees, expiry,
// merchant and key as a create over HTTP makes them) and hands every change to a sink that keeps the last version of
// each record. They are then written into the tables the store reads at start (schema.ts) with one multi-row INSERT
// per batch, where a request's group commit writes one statement per record: 100k payments take seconds this way and
// minutes that way on PGlite. The columns mirror sql-durable-state.ts's write(); a schema they no longer fit fails
// the INSERT loudly, and the caller checks the restart restored every payment.
import { join } from 'node:path';
import { createSimulator } from '../runtime/app.ts';
import type { DurableState } from '../runtime/persistence/durable-state.ts';
import { openDatabaseUrl, openStateDir } from '../runtime/persistence/index.ts';
import { openPglite } from '../runtime/sql-store/pglite-client.ts';
import { openPostgres } from '../runtime/sql-store/postgres-client.ts';
import type { SqlClient, SqlQueries } from '../runtime/sql-store/sql-client.ts';

export type SeedTarget = { stateDir: string } | { databaseUrl: string };

export interface SeedOptions {
  payments: number;
  /** The default merchant's key (the restarted simulator is started with the same). */
  apiKey: string;
  /** Rows per INSERT (default 2,000). */
  batch?: number;
}

const PAYMENT = 'payment';
const DELIVERY = 'delivery';
const quiet = { info: () => undefined, error: () => undefined };

/** Every record the simulator reported, kind -> id -> last version (a delete removes it). */
function recordingState(): { state: DurableState; records: Map<string, Map<string, unknown>> } {
  const records = new Map<string, Map<string, unknown>>();
  const bucket = (kind: string): Map<string, unknown> => {
    let found = records.get(kind);
    if (!found) records.set(kind, (found = new Map()));
    return found;
  };
  const state: DurableState = {
    records: () => new Map(),
    persist: { put: (kind, id, value) => bucket(kind).set(id, value), delete: (kind, id) => bucket(kind).delete(id) },
    commit: () => Promise.resolve(),
    // The seed calls the services directly, never the HTTP edge, which alone opens write sessions.
    beginWrite: () => Promise.reject(new Error('the seed writes through the services, not the edge')),
    endWrite: () => Promise.reject(new Error('the seed writes through the services, not the edge')),
    refresh: () => Promise.resolve(),
    withinWrite: (work) => work(),
    inWriteSession: () => false,
    trackWrites: (work) => [work(), { undoCount: 0, reported: new Set() }],
    applyWith: () => undefined,
  };
  return { state, records };
}

/** What `payments` creates through the simulator's own service report, as records. */
async function makeRecords(options: SeedOptions): Promise<Map<string, Map<string, unknown>>> {
  const { state, records } = recordingState();
  const sim = createSimulator({ defaultApiKey: options.apiKey, durable: state, logger: quiet });
  try {
    const merchantId = sim.defaultMerchant.id;
    for (let i = 0; i < options.payments; i += 1) {
      // Throws on a refused body, as the route would answer 400.
      sim.payments.create(
        merchantId,
        { amount: String(1 + (i % 1000)), currency: 'USD', externalId: `seed-${i}`, title: `seeded payment ${i}` },
        'api',
      );
    }
  } finally {
    await sim.close();
  }
  return records;
}

function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function insertAll(tx: SqlQueries, records: Map<string, Map<string, unknown>>, size: number): Promise<void> {
  for (const [kind, byId] of records) {
    const rows = [...byId];
    for (const chunk of batches(rows, size)) {
      if (kind === PAYMENT) {
        const json = chunk.map(([id, body]) => {
          const p = body as { merchantId: string; status: string; externalId: string | null; createdAt: number; updatedAt: number };
          return {
            id,
            merchant_id: p.merchantId,
            status: p.status,
            external_id: p.externalId,
            created_at: p.createdAt,
            updated_at: p.updatedAt,
            body,
          };
        });
        await tx.query(
          `INSERT INTO payments (id, merchant_id, status, external_id, created_at, updated_at, body)
           SELECT id, merchant_id, status, external_id, created_at, updated_at, body
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, merchant_id text, status text, external_id text, created_at bigint, updated_at bigint, body jsonb)`,
          [JSON.stringify(json)],
        );
      } else if (kind === DELIVERY) {
        const json = chunk.map(([id, body]) => ({ id, status: (body as { status: string }).status, body }));
        await tx.query(
          `INSERT INTO webhook_deliveries (id, status, body)
           SELECT id, status, body FROM jsonb_to_recordset($1::jsonb) AS r(id text, status text, body jsonb)`,
          [JSON.stringify(json)],
        );
      } else {
        const json = chunk.map(([id, body]) => ({ kind, id, body }));
        await tx.query(
          `INSERT INTO records (kind, id, body)
           SELECT kind, id, body FROM jsonb_to_recordset($1::jsonb) AS r(kind text, id text, body jsonb)
           ON CONFLICT (kind, id) DO UPDATE SET body = EXCLUDED.body`,
          [JSON.stringify(json)],
        );
      }
    }
  }
}

/**
 * Makes `payments` payments and writes them, with the merchant, key and settings records of a first start, into an
 * empty store at `target` (created and migrated by the store's own open). Returns how many records it wrote.
 */
export async function seedDurableStore(target: SeedTarget, options: SeedOptions): Promise<{ payments: number; records: number }> {
  const records = await makeRecords(options);
  // The store's own open creates the directory or applies the migrations; the bulk write goes through a connection
  // of our own once it is closed (PGlite allows one process in a directory).
  const store = 'stateDir' in target ? await openStateDir(target.stateDir) : await openDatabaseUrl(target.databaseUrl);
  const had = store.records(PAYMENT).size;
  await store.close();
  if (had !== 0) throw new Error(`seeding wants an empty store; this one holds ${had} payments`);
  const db: SqlClient =
    'stateDir' in target ? await openPglite(join(target.stateDir, 'db')) : await openPostgres(target.databaseUrl, { poolSize: 1 });
  try {
    await db.transaction((tx) => insertAll(tx, records, options.batch ?? 2000));
    // Fresh statistics, as a database that grew by itself would have them.
    await db.exec('ANALYZE');
  } finally {
    await db.close();
  }
  let count = 0;
  for (const byId of records.values()) count += byId.size;
  return { payments: records.get(PAYMENT)?.size ?? 0, records: count };
}
