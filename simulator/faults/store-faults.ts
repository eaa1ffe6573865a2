// Faults of payment storage: each a wrapper of the PaymentRepository the service is given.
import type { InsertResult, PaymentListFilter, PaymentRepository, TimeRange } from '../core/payments/index.ts';
import type { Payment } from '../core/payments/types.ts';

/** Forwards everything; a fault overrides the one method it breaks. */
class DelegatingStore implements PaymentRepository {
  constructor(protected readonly base: PaymentRepository) {}
  get(id: string): Payment | undefined {
    return this.base.get(id);
  }
  getOwned(merchantId: string, id: string): Payment | undefined {
    return this.base.getOwned(merchantId, id);
  }
  insert(payment: Payment): InsertResult {
    return this.base.insert(payment);
  }
  update(payment: Payment): void {
    this.base.update(payment);
  }
  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined {
    return this.base.list(merchantId, filter);
  }
  all(merchantId: string, range?: TimeRange): IterableIterator<Payment> {
    return this.base.all(merchantId, range);
  }
}

const key = (merchantId: string, externalId: string): string => `${merchantId}\u0000${externalId}`;

/** `other-merchant-payment-visible`: the owner lookup ignores the owner. */
export class AnyOwnerStore extends DelegatingStore {
  override getOwned(_merchantId: string, id: string): Payment | undefined {
    return this.base.get(id);
  }
}

/** `list-cursor-skips-item`: the page after a cursor starts one item too far. */
export class CursorSkipsItemStore extends DelegatingStore {
  override list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined {
    if (filter.cursor === undefined) return this.base.list(merchantId, filter);
    const page = this.base.list(merchantId, { ...filter, limit: filter.limit + 1 });
    return page && { items: page.items.slice(1), hasMore: page.hasMore };
  }
}

/** `external-id-held-after-cancel`: the live-externalId index is not released on CANCELLED. */
export class HeldAfterCancelStore extends DelegatingStore {
  private readonly held = new Map<string, string>();

  override insert(payment: Payment): InsertResult {
    const holder = payment.externalId === null ? undefined : this.held.get(key(payment.merchantId, payment.externalId));
    return holder === undefined ? this.base.insert(payment) : { ok: false, holder };
  }

  override update(payment: Payment): void {
    this.base.update(payment);
    if (payment.status === 'CANCELLED' && payment.externalId !== null)
      this.held.set(key(payment.merchantId, payment.externalId), payment.id);
  }
}

/**
 * Half of `external-id-check-then-insert`: the insert trusts an earlier uniqueness lookup, so a
 * payment whose externalId is already held goes in anyway (stored without the index entry).
 */
export class UncheckedInsertStore extends DelegatingStore {
  override insert(payment: Payment): InsertResult {
    const result = this.base.insert(payment);
    if (result.ok || payment.externalId === null) return result;
    this.base.insert({ ...payment, externalId: null });
    this.base.update(payment);
    return { ok: true };
  }
}
