// The rows of durable mode, written and read back by change number. Every write draws the row's `change` from the
// sequence `state_changes` (migration 3) while the writer holds WRITE_LOCK, a transaction-scoped advisory lock: so
// numbers are committed in the order they are drawn, and "every row with a number above N" is exactly what was
// committed since a reader saw N. A delete writes a tombstone with its own number.
import type { SqlQueries } from './sql-client.ts';

/** One write of a batch: the record's latest value, or its deletion. */
export interface Change {
  kind: string;
  id: string;
  value: unknown;
  deleted: boolean;
}

/** A row changed since some number, as read back: `body` is the record's JSON text, null for a tombstone. */
export interface ChangedRow {
  kind: string;
  id: string;
  body: string | null;
  change: number;
}

/** Any fixed number: the advisory lock every writer of the state holds from before it catches up until it commits. */
export const WRITE_LOCK = 2_028_003;

const PAYMENT = 'payment';
const DELIVERY = 'delivery';
const NEXT = `nextval('state_changes')`;
/** The forward order of payment statuses (core/payments statusRank) in SQL. */
const rank = (column: string): string => `(CASE ${column} WHEN 'ACTIVE' THEN 0 WHEN 'PROCESSING' THEN 1 ELSE 2 END)`;

export async function takeWriteLock(tx: SqlQueries): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
}

/** The highest change number committed (0 for a new database). */
export async function latestChange(q: SqlQueries): Promise<number> {
  const { rows } = await q.query<{ latest: string | null }>(
    `SELECT GREATEST((SELECT max(change) FROM payments), (SELECT max(change) FROM webhook_deliveries),
       (SELECT max(change) FROM records), (SELECT max(change) FROM tombstones)) AS latest`,
  );
  return Number(rows[0]?.latest ?? 0);
}

/** Every row changed after `since`, in change order (one indexed range per table). */
export async function changesSince(q: SqlQueries, since: number): Promise<ChangedRow[]> {
  const { rows } = await q.query<{ kind: string; id: string; body: string | null; change: string }>(
    `SELECT '${PAYMENT}' AS kind, id, body::text AS body, change FROM payments WHERE change > $1
     UNION ALL SELECT '${DELIVERY}', id, body::text, change FROM webhook_deliveries WHERE change > $1
     UNION ALL SELECT kind, id, body::text, change FROM records WHERE change > $1
     UNION ALL SELECT kind, id, NULL, change FROM tombstones WHERE change > $1
     ORDER BY change`,
    [since],
  );
  return rows.map((row) => ({ kind: row.kind, id: row.id, body: row.body, change: Number(row.change) }));
}

/**
 * A record as jsonb text. Postgres text cannot hold NUL, so jsonb refuses the escape \u0000: a NUL inside a string
 * (which only a client that sends one can put there) is kept as U+FFFD instead of failing every commit after it.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

/**
 * Whether a pending change is a delete another process already committed (its tombstone): the record is gone whoever
 * removed it, so the catch-up takes it as done rather than as a conflict. An equal put is still a conflict: what was
 * reported with it (a transition's webhook delivery) depends on who made the change, and the other process sent its own.
 */
export function deletedByBoth(change: Change, body: string | null): boolean {
  return change.deleted && body === null;
}

/** Who leases a delivery it writes first, and for how long (sql-delivery-leases.ts). */
export interface LeaseHolder {
  owner: string;
  ms: number;
}

/** Writes one change under the write lock; returns its change number. A new delivery is leased to `lease`'s owner. */
export async function writeChange(tx: SqlQueries, entry: Change, lease?: LeaseHolder): Promise<number> {
  const { kind, id, deleted } = entry;
  if (deleted) {
    if (kind === PAYMENT) await tx.query('DELETE FROM payments WHERE id = $1', [id]);
    else if (kind === DELIVERY) await tx.query('DELETE FROM webhook_deliveries WHERE id = $1', [id]);
    else await tx.query('DELETE FROM records WHERE kind = $1 AND id = $2', [kind, id]);
    return changeOf(
      await tx.query<{ change: string }>(
        `INSERT INTO tombstones (kind, id) VALUES ($1, $2) ON CONFLICT (kind, id) DO UPDATE SET change = ${NEXT} RETURNING change`,
        [kind, id],
      ),
    );
  }
  const value = jsonText(entry.value);
  if (kind === PAYMENT) {
    const p = entry.value as { merchantId: string; status: string; externalId: string | null; createdAt: number; updatedAt: number };
    // Forward only: a version that would move a stored payment back is refused (the transaction rolls back).
    const result = await tx.query<{ change: string }>(
      `INSERT INTO payments (id, merchant_id, status, external_id, created_at, updated_at, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, external_id = EXCLUDED.external_id,
         updated_at = EXCLUDED.updated_at, body = EXCLUDED.body, change = ${NEXT}
       WHERE payments.status = EXCLUDED.status OR ${rank('payments.status')} < ${rank('EXCLUDED.status')}
       RETURNING change`,
      [id, p.merchantId, p.status, p.externalId, p.createdAt, p.updatedAt, value],
    );
    if (result.affectedRows !== 1) throw new Error(`payment ${id} would move back to ${p.status}; the database keeps the later state`);
    return changeOf(result);
  }
  if (kind === DELIVERY)
    return changeOf(
      await tx.query<{ change: string }>(
        `INSERT INTO webhook_deliveries (id, status, body, lease_owner, lease_until)
         VALUES ($1, $2, $3::jsonb, $4, now() + $5 * interval '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body, change = ${NEXT} RETURNING change`,
        [id, (entry.value as { status: string }).status, value, lease?.owner ?? null, lease?.ms ?? 0],
      ),
    );
  return changeOf(
    await tx.query<{ change: string }>(
      `INSERT INTO records (kind, id, body) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (kind, id) DO UPDATE SET body = EXCLUDED.body, change = ${NEXT} RETURNING change`,
      [kind, id, value],
    ),
  );
}

function changeOf(result: { rows: { change: string }[] }): number {
  return Number(result.rows[0]?.change ?? 0);
}
