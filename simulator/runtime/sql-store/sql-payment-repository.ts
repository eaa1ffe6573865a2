// Payments in Postgres (PGlite or a server): the AsyncPaymentRepository of core/payments in one dialect. The database
// keeps the invariants: a live externalId has one holder (a partial unique index, so an insert that loses a race is
// refused by the index, not by a read before it), and a transition lands only on the version it was decided from and
// only forward (a conditional UPDATE: of racing transitions exactly one changes a row). Lists are keyset pages in
// the in-memory store's order (createdAt desc, then id desc), so both engines page alike.
import { type AsyncPaymentRepository, movesForward, statusRank } from '../../core/payments/async-payment-repository.ts';
import type { InsertResult, PaymentListFilter, TimeRange } from '../../core/payments/payment-store.ts';
import { LIVE_STATUSES, type Payment } from '../../core/payments/types.ts';
import { type SqlClient, sqlState, UNIQUE_VIOLATION } from './sql-client.ts';

const LIVE = LIVE_STATUSES.map((status) => `'${status}'`).join(', ');
/** How many rows a walk over all of a merchant's payments reads at a time. */
const WALK_PAGE = 500;
/** The status order of statusRank, in SQL, for the forward-only condition. */
const RANK_SQL = `(CASE status WHEN 'ACTIVE' THEN 0 WHEN 'PROCESSING' THEN 1 ELSE 2 END)`;

type BodyRow = { body: Payment };

export class SqlPaymentRepository implements AsyncPaymentRepository {
  constructor(private readonly db: SqlClient) {}

  async get(id: string): Promise<Payment | undefined> {
    return (await this.db.query<BodyRow>('SELECT body FROM payments WHERE id = $1', [id])).rows[0]?.body;
  }

  async getOwned(merchantId: string, id: string): Promise<Payment | undefined> {
    const { rows } = await this.db.query<BodyRow>('SELECT body FROM payments WHERE id = $1 AND merchant_id = $2', [id, merchantId]);
    return rows[0]?.body;
  }

  async insert(payment: Payment): Promise<InsertResult> {
    // The unique index decides; a refused insert then names the holder. A holder that left the live statuses between
    // the two statements frees the externalId, so the insert is tried again.
    for (;;) {
      try {
        await this.db.query(
          `INSERT INTO payments (id, merchant_id, status, external_id, created_at, updated_at, body)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [payment.id, payment.merchantId, payment.status, payment.externalId, payment.createdAt, payment.updatedAt, payment],
        );
        return { ok: true };
      } catch (error) {
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        if (await this.get(payment.id)) throw new Error(`duplicate id ${payment.id}`);
        const { rows } = await this.db.query<{ id: string }>(
          `SELECT id FROM payments WHERE merchant_id = $1 AND external_id = $2 AND status IN (${LIVE})`,
          [payment.merchantId, payment.externalId],
        );
        if (rows[0]) return { ok: false, holder: rows[0].id };
      }
    }
  }

  async replace(previous: Payment, next: Payment): Promise<boolean> {
    if (next.id !== previous.id) throw new Error(`replace: ${next.id} is not ${previous.id}`);
    if (!movesForward(previous.status, next.status)) return false;
    // The stored record must still be `previous`, whole (jsonb equality), and the status may only move forward.
    const { affectedRows } = await this.db.query(
      `UPDATE payments SET status = $2, updated_at = $3, body = $4
       WHERE id = $1 AND body = $5::jsonb AND (status = $2 OR ${RANK_SQL} < $6)`,
      [next.id, next.status, next.updatedAt, next, previous, statusRank(next.status)],
    );
    return affectedRows === 1;
  }

  async list(merchantId: string, filter: PaymentListFilter): Promise<{ items: Payment[]; hasMore: boolean } | undefined> {
    const params: unknown[] = [merchantId];
    const where = ['merchant_id = $1'];
    if (filter.cursor !== undefined) {
      // The cursor is any of the merchant's payments, even one that has since left the filtered set.
      const cursor = await this.getOwned(merchantId, filter.cursor);
      if (!cursor) return undefined;
      params.push(cursor.createdAt, cursor.id);
      where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    if (filter.status !== undefined) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    if (filter.externalId !== undefined) {
      params.push(filter.externalId);
      where.push(`external_id = $${params.length}`);
    }
    params.push(filter.limit + 1);
    const { rows } = await this.db.query<BodyRow>(
      `SELECT body FROM payments WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    const hasMore = rows.length > filter.limit;
    return { items: rows.slice(0, filter.limit).map((row) => row.body), hasMore };
  }

  async *all(merchantId: string, range?: TimeRange): AsyncIterableIterator<Payment> {
    // Keyset pages: each read starts after the last payment given, so inserts meanwhile neither repeat nor skip one.
    let after: { at: number; id: string } | undefined;
    for (;;) {
      const params: unknown[] = [merchantId, range?.from ?? Number.MIN_SAFE_INTEGER, range?.to ?? Number.MAX_SAFE_INTEGER];
      let keyset = '';
      if (after) {
        params.push(after.at, after.id);
        keyset = 'AND (created_at, id) < ($4, $5)';
      }
      const { rows } = await this.db.query<BodyRow>(
        `SELECT body FROM payments WHERE merchant_id = $1 AND created_at BETWEEN $2 AND $3 ${keyset}
         ORDER BY created_at DESC, id DESC LIMIT ${WALK_PAGE}`,
        params,
      );
      for (const { body } of rows) yield body;
      const last = rows[rows.length - 1];
      if (rows.length < WALK_PAGE || !last) return;
      after = { at: last.body.createdAt, id: last.body.id };
    }
  }

  async forget(merchantId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>('DELETE FROM payments WHERE merchant_id = $1 RETURNING id', [merchantId]);
    return rows.map((row) => row.id);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
