// The payment store as a database offers it: every call a promise, and the two invariants the service must not
// lose when several requests (or several processes) race kept by the store itself: a live externalId has one holder
// (`insert`), and of two transitions from one version exactly one lands (`replace`). The in-memory store sits behind
// it here; `runtime/sql-store/` puts a Postgres-dialect store (PGlite) behind it (docs/decisions.md, "State on a
// database"). The service still runs on the synchronous PaymentRepository: this is the interface it moves to.
import { type InsertResult, type PaymentListFilter, PaymentStore, type TimeRange } from './payment-store.ts';
import type { Payment, PaymentStatus } from './types.ts';

export interface AsyncPaymentRepository {
  get(id: string): Promise<Payment | undefined>;
  /** The payment when it belongs to `merchantId` (another merchant's payment does not exist for it). */
  getOwned(merchantId: string, id: string): Promise<Payment | undefined>;
  /** Inserts unless its externalId is held by a live payment of the same merchant (then the holder's id). */
  insert(payment: Payment): Promise<InsertResult>;
  /**
   * Stores `next` in place of `previous` only if the stored version is still `previous` and the status moves forward
   * (or stays): true when it landed. Of transitions racing from one version, exactly one lands.
   */
  replace(previous: Payment, next: Payment): Promise<boolean>;
  /** One page, newest first (createdAt, then id); undefined when the cursor is not one of this merchant's payments. */
  list(merchantId: string, filter: PaymentListFilter): Promise<{ items: Payment[]; hasMore: boolean } | undefined>;
  /** Every payment of a merchant, newest first; only those created within `range` (inclusive) when given. */
  all(merchantId: string, range?: TimeRange): AsyncIterableIterator<Payment>;
  /** A merchant reset: every payment of the merchant is gone. Returns their ids. */
  forget(merchantId: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Forward order of statuses: ACTIVE, then PROCESSING, then the terminal ones (which never change into another). */
export function statusRank(status: PaymentStatus): number {
  return status === 'ACTIVE' ? 0 : status === 'PROCESSING' ? 1 : 2;
}

/** A status change the store accepts: the same status, or a later one of the forward order. */
export function movesForward(from: PaymentStatus, to: PaymentStatus): boolean {
  return from === to || statusRank(from) < statusRank(to);
}

/**
 * The in-memory store behind the async interface. Records are immutable, so "still `previous`" is identity; every
 * check-and-write is one synchronous step, which is what makes it atomic here.
 */
export class MemoryPaymentRepository implements AsyncPaymentRepository {
  constructor(private readonly store: PaymentStore = new PaymentStore()) {}

  async get(id: string): Promise<Payment | undefined> {
    return this.store.get(id);
  }

  async getOwned(merchantId: string, id: string): Promise<Payment | undefined> {
    return this.store.getOwned(merchantId, id);
  }

  async insert(payment: Payment): Promise<InsertResult> {
    return this.store.insert(payment);
  }

  async replace(previous: Payment, next: Payment): Promise<boolean> {
    if (next.id !== previous.id) throw new Error(`replace: ${next.id} is not ${previous.id}`);
    if (this.store.get(previous.id) !== previous || !movesForward(previous.status, next.status)) return false;
    this.store.update(next);
    return true;
  }

  async list(merchantId: string, filter: PaymentListFilter): Promise<{ items: Payment[]; hasMore: boolean } | undefined> {
    return this.store.list(merchantId, filter);
  }

  async *all(merchantId: string, range?: TimeRange): AsyncIterableIterator<Payment> {
    yield* this.store.all(merchantId, range);
  }

  async forget(merchantId: string): Promise<string[]> {
    return this.store.forget(merchantId);
  }

  async close(): Promise<void> {}
}
