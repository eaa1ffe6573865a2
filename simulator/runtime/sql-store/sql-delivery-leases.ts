// Which process sends a pending webhook delivery's next attempt, when several share one database (migration 4). The
// process that wrote the delivery holds its lease from birth; before each attempt it claims it again (one conditional
// UPDATE: only while nobody else holds it unexpired), so an attempt goes out from one process only. A process that
// dies stops renewing: once its leases ran out, another process's sweep finds them and takes the deliveries over.
// The lease outlasts an attempt (its timeout is 10 s by default), so a live sender never loses one mid-attempt.
import type { SqlQueries } from './sql-client.ts';
import type { LeaseHolder } from './sql-changes.ts';

/** 30 s: what a SIGKILLed process's deliveries wait before another process takes them over. */
export const DEFAULT_DELIVERY_LEASE_MS = 30_000;

export class SqlDeliveryLeases {
  constructor(
    private readonly db: SqlQueries,
    readonly holder: LeaseHolder,
  ) {}

  /** Claims (or renews) the lease of a pending delivery; false when another process holds it unexpired. */
  async claim(id: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `UPDATE webhook_deliveries SET lease_owner = $2, lease_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND status = 'pending' AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
       RETURNING id`,
      [id, this.holder.owner, this.holder.ms],
    );
    return rows.length === 1;
  }

  /** Pending deliveries whose lease ran out (their process stopped renewing): for a takeover. */
  async expired(): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < now()) ORDER BY pos LIMIT 500`,
    );
    return rows.map((row) => row.id);
  }
}
