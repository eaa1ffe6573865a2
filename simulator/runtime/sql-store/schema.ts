// The schema of the SQL store, as numbered migrations applied once each, in order, at open (the table
// `schema_migrations` says which ran). Postgres dialect: the same statements for PGlite and a Postgres server.
import type { SqlClient } from './sql-client.ts';

/** The live statuses (they hold their externalId; types.ts LIVE_STATUSES) as an SQL list. */
const LIVE = `('ACTIVE', 'PROCESSING', 'SUCCESSFUL')`;

export const MIGRATIONS: readonly { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'payments',
    // The record is kept whole in `body`; the columns beside it are what the indexes and conditions read.
    // Ids compare bytewise (COLLATE "C"), as the in-memory index orders them.
    sql: `
      CREATE TABLE payments (
        id text COLLATE "C" PRIMARY KEY,
        merchant_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED')),
        external_id text,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        body jsonb NOT NULL
      );
      CREATE INDEX payments_newest ON payments (merchant_id, created_at DESC, id DESC);
      CREATE INDEX payments_status_newest ON payments (merchant_id, status, created_at DESC, id DESC);
      CREATE INDEX payments_external_id ON payments (merchant_id, external_id, created_at DESC, id DESC) WHERE external_id IS NOT NULL;
      -- Live-externalId uniqueness (spec: one live payment per externalId and merchant) kept by the database itself.
      CREATE UNIQUE INDEX payments_live_external_id ON payments (merchant_id, external_id)
        WHERE external_id IS NOT NULL AND status IN ${LIVE};
    `,
  },
  {
    id: 2,
    name: 'state',
    // Durable mode's other records. Deliveries have a table of their own (the outbox: written in the transaction of
    // the change that enqueued them); everything else (merchants, keys by hash, endpoints, payouts, transactions,
    // settings, clocks, checkout sessions) is one row per record. `pos` keeps the order records were first written
    // in, which is the order stores are given them back at start.
    sql: `
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY,
        pos bigserial NOT NULL,
        status text NOT NULL,
        body jsonb NOT NULL
      );
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (pos) WHERE status = 'pending';
      CREATE TABLE records (
        kind text NOT NULL,
        id text NOT NULL,
        pos bigserial NOT NULL,
        body jsonb NOT NULL,
        PRIMARY KEY (kind, id)
      );
      CREATE INDEX records_order ON records (pos);
    `,
  },
  {
    id: 3,
    name: 'change numbers',
    // Several processes on one database (issue 28 step 3): every row carries the number of its last change, drawn
    // from one sequence by writers that hold the write lock (sql-changes.ts), so numbers become visible in the order
    // they were drawn and a process catches up with one indexed query for the rows changed since the last number it
    // applied. A delete leaves a tombstone with its own number.
    sql: `
      CREATE SEQUENCE state_changes;
      ALTER TABLE payments ADD COLUMN change bigint NOT NULL DEFAULT nextval('state_changes');
      ALTER TABLE webhook_deliveries ADD COLUMN change bigint NOT NULL DEFAULT nextval('state_changes');
      ALTER TABLE records ADD COLUMN change bigint NOT NULL DEFAULT nextval('state_changes');
      CREATE TABLE tombstones (
        kind text NOT NULL,
        id text NOT NULL,
        change bigint NOT NULL DEFAULT nextval('state_changes'),
        PRIMARY KEY (kind, id)
      );
      CREATE INDEX payments_change ON payments (change);
      CREATE INDEX webhook_deliveries_change ON webhook_deliveries (change);
      CREATE INDEX records_change ON records (change);
      CREATE INDEX tombstones_change ON tombstones (change);
    `,
  },
  {
    id: 4,
    name: 'shared counters and delivery leases',
    // Rate-limit windows shared by every process (one row per key, settings and window, incremented in one
    // statement), and the lease of each pending delivery: the process that holds it unexpired is the only one that
    // sends its next attempt; a lease that ran out (its process died) is taken over (sql-delivery-leases.ts).
    sql: `
      CREATE TABLE rate_limit_counters (
        key text NOT NULL,
        window_start bigint NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key, window_start)
      );
      CREATE INDEX rate_limit_counters_window ON rate_limit_counters (window_start);
      ALTER TABLE webhook_deliveries ADD COLUMN lease_owner text, ADD COLUMN lease_until timestamptz;
    `,
  },
  {
    id: 5,
    name: 'user operation leases',
    // Which process submits and settles each accepted user operation (one row per payment: a payment has at most one
    // accepted operation). Taken before the operation enters a mempool (one taker while the lease runs), renewed by
    // its holder until the payment leaves PROCESSING, taken over once it ran out (sql-operation-leases.ts).
    sql: `
      CREATE TABLE user_operation_leases (
        payment_id text PRIMARY KEY,
        chain_id integer NOT NULL,
        user_op_hash text NOT NULL,
        owner text NOT NULL,
        lease_until timestamptz NOT NULL
      );
      CREATE INDEX user_operation_leases_until ON user_operation_leases (lease_until);
    `,
  },
  {
    id: 6,
    name: 'held operations',
    // A control-API operation waits in its holder's mempool for a confirm or a fail that may reach any process of the
    // sandbox. \`held\` is true while nobody has started to bundle or drop it: the process that turns it false (one
    // conditional update) is the one that bundles or drops it, whoever held it (sql-operation-leases.ts).
    sql: `
      ALTER TABLE user_operation_leases ADD COLUMN held boolean NOT NULL DEFAULT false;
    `,
  },
];

/** Any fixed number: the advisory lock that makes processes starting together on one server migrate one at a time. */
const MIGRATION_LOCK = 2_028_001;

/** Applies the migrations not yet applied, all in one transaction, one process at a time. */
export async function migrate(db: SqlClient): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await tx.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.id)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
      applied.push(migration.id);
    }
    return applied;
  });
}
