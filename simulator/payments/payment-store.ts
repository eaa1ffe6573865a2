// In-memory payments: by id, per-merchant newest-first index, and the live-externalId index that
// makes "check externalId, then insert" one synchronous step (no await between them, so N
// concurrent creates with one externalId cannot both pass the check).
import { NewestFirstIndex } from '../support/newest-first-index.ts';
import type { Payment, PaymentStatus } from './types.ts';
import { LIVE_STATUSES } from './types.ts';

export interface PaymentListFilter {
  cursor?: string | undefined;
  limit: number;
  status?: PaymentStatus | undefined;
  externalId?: string | undefined;
}

const liveKey = (merchantId: string, externalId: string): string => `${merchantId}\u0000${externalId}`;

export type InsertResult = { ok: true } | { ok: false; holder: string };

/** What the payment service needs of storage; the composition root may wrap it. */
export interface PaymentRepository {
  get(id: string): Payment | undefined;
  getOwned(merchantId: string, id: string): Payment | undefined;
  insert(payment: Payment): InsertResult;
  liveHolder(merchantId: string, externalId: string): string | undefined;
  update(payment: Payment): void;
  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined;
  all(merchantId: string): IterableIterator<Payment>;
}

export class PaymentStore implements PaymentRepository {
  private readonly byId = new Map<string, Payment>();
  private readonly byMerchant = new Map<string, NewestFirstIndex>();
  private readonly liveExternalIds = new Map<string, string>();

  get(id: string): Payment | undefined {
    return this.byId.get(id);
  }

  /** The payment when it belongs to `merchantId` (another merchant's payment does not exist for it). */
  getOwned(merchantId: string, id: string): Payment | undefined {
    const payment = this.byId.get(id);
    return payment?.merchantId === merchantId ? payment : undefined;
  }

  /** Atomically insert unless its externalId is held by a live payment of the same merchant. */
  insert(payment: Payment): InsertResult {
    if (payment.externalId !== null) {
      const key = liveKey(payment.merchantId, payment.externalId);
      const holder = this.liveExternalIds.get(key);
      if (holder !== undefined) return { ok: false, holder };
      if (LIVE_STATUSES.includes(payment.status)) this.liveExternalIds.set(key, payment.id);
    }
    this.byId.set(payment.id, payment);
    this.indexOf(payment.merchantId).insert(payment.id, payment.createdAt);
    return { ok: true };
  }

  /** The live payment holding `externalId` for the merchant, if any. */
  liveHolder(merchantId: string, externalId: string): string | undefined {
    return this.liveExternalIds.get(liveKey(merchantId, externalId));
  }

  /** Replace a stored payment with its next version; frees the externalId on leaving the live statuses. */
  update(payment: Payment): void {
    if (!this.byId.has(payment.id)) throw new Error(`unknown payment ${payment.id}`);
    this.byId.set(payment.id, payment);
    const released = !LIVE_STATUSES.includes(payment.status);
    if (payment.externalId !== null && released) {
      const key = liveKey(payment.merchantId, payment.externalId);
      if (this.liveExternalIds.get(key) === payment.id) this.liveExternalIds.delete(key);
    }
  }

  /** One page, newest first; undefined when the cursor is not one of this merchant's payments. */
  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined {
    const accept = (id: string): boolean => {
      const p = this.byId.get(id) as Payment;
      return (filter.status === undefined || p.status === filter.status) && (filter.externalId === undefined || p.externalId === filter.externalId);
    };
    const page = this.indexOf(merchantId).page({ cursor: filter.cursor, limit: filter.limit, accept });
    if (!page) return undefined;
    return { items: page.ids.map((id) => this.byId.get(id) as Payment), hasMore: page.hasMore };
  }

  /** Every payment of a merchant, newest first. */
  *all(merchantId: string): IterableIterator<Payment> {
    for (const id of this.indexOf(merchantId).ids()) yield this.byId.get(id) as Payment;
  }

  private indexOf(merchantId: string): NewestFirstIndex {
    let index = this.byMerchant.get(merchantId);
    if (!index) {
      index = new NewestFirstIndex();
      this.byMerchant.set(merchantId, index);
    }
    return index;
  }
}
