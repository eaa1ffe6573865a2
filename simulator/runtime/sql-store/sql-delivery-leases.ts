// Which process sends a pending webhook delivery's next attempt, when several share one database (migration 4). The
// process that wrote the delivery holds its lease from birth; before each attempt it claims it again (one conditional
// UPDATE), so an attempt goes out from one process only. The database decides, not memory: the claim of attempt N
// succeeds only while nobody else holds the lease unexpired AND the stored delivery holds no attempt numbered N or
// later (so an attempt another process already made and committed is never made again, whatever this process's copy
// says). A claimed attempt keeps its lease renewed (every half lease, by the takeover sweep) until its outcome is
// committed, so a live sender never loses a lease mid-attempt however slow the receiver or the machine. A process
// that dies stops renewing: once its leases ran out, another process's sweep finds them and takes them over.
import type { SqlQueries } from './sql-client.ts';
import type { LeaseHolder } from './sql-changes.ts';

/** 30 s: what a SIGKILLed process's deliveries wait before another process takes them over. */
export const DEFAULT_DELIVERY_LEASE_MS = 30_000;

/** How long a claimed attempt is renewed at most (an abandoned claim must not hold a delivery for ever). */
const RENEW_CLAIM_FOR_MS = 5 * 60_000;

/** The highest attempt number a stored delivery body holds (0 when none), as SQL. */
const storedAttempt = (body: string): string =>
  `COALESCE((SELECT max((made->>'number')::int) FROM jsonb_array_elements(${body}->'attempts') AS made), 0)`;

export class SqlDeliveryLeases {
  /** Attempts claimed here whose outcome the database does not hold yet: id -> attempt number and claim time. */
  private readonly claimed = new Map<string, { attempt: number; at: number }>();

  constructor(
    private readonly db: SqlQueries,
    readonly holder: LeaseHolder,
  ) {}

  /**
   * Claims (or renews) the lease of a pending delivery to make attempt `attempt`; false when another process holds it
   * unexpired or the stored delivery already holds that attempt (or a later one).
   */
  async claim(id: string, attempt: number): Promise<boolean> {
    const { rows } = await this.db.query(
      `UPDATE webhook_deliveries SET lease_owner = $2, lease_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND status = 'pending' AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
         AND ${storedAttempt('body')} < $4
       RETURNING id`,
      [id, this.holder.owner, this.holder.ms, attempt],
    );
    if (rows.length !== 1) return false;
    this.claimed.set(id, { attempt, at: Date.now() });
    return true;
  }

  /**
   * Renews the leases of attempts claimed here whose outcome is not committed yet (in flight, or recorded in memory
   * and not yet written); forgets those the database now holds. Returns how many it renewed.
   */
  async renewClaimed(): Promise<number> {
    const now = Date.now();
    for (const [id, claim] of this.claimed) if (now - claim.at > RENEW_CLAIM_FOR_MS) this.claimed.delete(id);
    if (this.claimed.size === 0) return 0;
    const ids = [...this.claimed.keys()];
    const attempts = ids.map((id) => this.claimed.get(id)?.attempt ?? 0);
    const { rows } = await this.db.query<{ id: string; renewed: boolean }>(
      `WITH claim AS (SELECT * FROM unnest($1::text[], $2::int[]) AS c(id, attempt))
       UPDATE webhook_deliveries d SET lease_until = CASE WHEN d.status = 'pending' AND ${storedAttempt('d.body')} < claim.attempt
           THEN now() + $4 * interval '1 millisecond' ELSE d.lease_until END
       FROM claim WHERE d.id = claim.id AND d.lease_owner = $3
       RETURNING d.id, (d.status = 'pending' AND ${storedAttempt('d.body')} < claim.attempt) AS renewed`,
      [ids, attempts, this.holder.owner, this.holder.ms],
    );
    const renewed = new Set(rows.filter((row) => row.renewed).map((row) => row.id));
    // Written, finished, taken over or gone: nothing more to keep alive.
    for (const id of ids) if (!renewed.has(id)) this.claimed.delete(id);
    return renewed.size;
  }

  /** Pending deliveries whose lease ran out (their process stopped renewing): for a takeover. */
  async expired(): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < now()) ORDER BY pos LIMIT 500`,
    );
    return rows.map((row) => row.id);
  }
}
