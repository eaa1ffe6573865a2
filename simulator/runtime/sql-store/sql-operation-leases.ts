// Which process submits and settles an accepted user operation when several share one database (migration 5). The
// admission takes the payment's lease (one conditional upsert: only while nobody else holds it unexpired) before the
// operation enters that process's mempool, so one process submits it. The holder renews its leases every half lease
// while its payments are PROCESSING and gives them up once they are not; a process that dies stops renewing, and once
// its leases ran out another process takes them over (runtime/operation-takeover.ts) and settles the operation from
// the chain's receipt, or submits it again if it never reached a block.
//
// A held operation (the control API's: it waits for a confirm or a fail) is marked \`held\` (migration 6). A confirm or
// fail may reach any process: the one that turns \`held\` false (one conditional update, whoever held the lease) takes
// the lease and is the one that bundles or drops the operation; every other process, its former holder included,
// finds \`held\` false and leaves it alone. A held operation never leaves a mempool on its own, so its former holder
// cannot have started it: the mark decides before anyone does.
import type { SqlQueries } from './sql-client.ts';
import type { LeaseHolder } from './sql-changes.ts';

/** The operation a lease is for. */
export interface LeasedOperation {
  paymentId: string;
  chainId: number;
  userOpHash: string;
  /** A control-API operation: it waits for a confirm or fail, which any process may take (takeHeld). */
  hold?: boolean;
}

export class SqlOperationLeases {
  constructor(
    private readonly db: SqlQueries,
    readonly holder: LeaseHolder,
  ) {}

  /** Takes (or renews) the lease of a payment's operation; false while another process holds it unexpired. */
  async claim(op: LeasedOperation): Promise<boolean> {
    const { rows } = await this.db.query(
      `INSERT INTO user_operation_leases AS lease (payment_id, chain_id, user_op_hash, owner, lease_until, held)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond', $6)
       ON CONFLICT (payment_id) DO UPDATE SET chain_id = EXCLUDED.chain_id, user_op_hash = EXCLUDED.user_op_hash,
         owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until, held = EXCLUDED.held
       WHERE lease.owner = EXCLUDED.owner OR lease.lease_until < now()
       RETURNING payment_id`,
      [op.paymentId, op.chainId, op.userOpHash.toLowerCase(), this.holder.owner, this.holder.ms, op.hold === true],
    );
    return rows.length === 1;
  }

  /**
   * A confirm or fail of a held operation, through any process: true when this process turned \`held\` false and took
   * the lease (it bundles or drops the operation now), false when the operation is not held (another process already
   * bundles or drops it, or it was never held). A process that took it and stopped: its lease runs out and the
   * takeover puts it back, held, if it was not mined.
   */
  async takeHeld(paymentId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `UPDATE user_operation_leases SET owner = $2, lease_until = now() + $3 * interval '1 millisecond', held = false
       WHERE payment_id = $1 AND held RETURNING payment_id`,
      [paymentId, this.holder.owner, this.holder.ms],
    );
    return rows.length === 1;
  }

  /** Gives up this process's lease of a payment's operation (its payment left PROCESSING, or the admission was undone). */
  async release(paymentId: string): Promise<void> {
    await this.db.query('DELETE FROM user_operation_leases WHERE payment_id = $1 AND owner = $2', [paymentId, this.holder.owner]);
  }

  /** Renews every lease this process holds; returns their payments. */
  async renew(): Promise<string[]> {
    const { rows } = await this.db.query<{ payment_id: string }>(
      `UPDATE user_operation_leases SET lease_until = now() + $2 * interval '1 millisecond' WHERE owner = $1 RETURNING payment_id`,
      [this.holder.owner, this.holder.ms],
    );
    return rows.map((row) => row.payment_id);
  }

  /** Payments whose operation's lease ran out (its process stopped renewing): for a takeover. */
  async expired(): Promise<string[]> {
    const { rows } = await this.db.query<{ payment_id: string }>(
      'SELECT payment_id FROM user_operation_leases WHERE lease_until < now() ORDER BY lease_until LIMIT 500',
    );
    return rows.map((row) => row.payment_id);
  }

  /** Drops a lease that ran out and has nothing left to settle (its payment is not PROCESSING). */
  async forget(paymentId: string): Promise<void> {
    await this.db.query('DELETE FROM user_operation_leases WHERE payment_id = $1 AND lease_until < now()', [paymentId]);
  }
}
