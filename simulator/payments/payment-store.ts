// In-memory payments: by id, per-merchant newest-first index, and the live-externalId index that
// makes "check externalId, then insert" one synchronous step (no await between them, so N
// concurrent creates with one externalId cannot both pass the check). Filtered lists read
// per-status and per-externalId indexes, and time ranges are a binary search: with 200k payments
// no list, summary or export scans payments it does not return.
import { NewestFirstIndex } from '../support/newest-first-index.ts';
import type { Persist } from '../support/persist.ts';
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
  /** Newest first; only those created within `range` (inclusive) when given. */
  all(merchantId: string, range?: TimeRange): IterableIterator<Payment>;
}

export interface TimeRange {
  from: number;
  to: number;
}

const statusKey = (merchantId: string, status: PaymentStatus): string => `${merchantId}\u0000${status}`;

export class PaymentStore implements PaymentRepository {
  private readonly byId = new Map<string, Payment>();
  private readonly byMerchant = new Map<string, NewestFirstIndex>();
  private readonly liveExternalIds = new Map<string, string>();
  private readonly byStatus = new Map<string, NewestFirstIndex>();
  /** Most externalIds name one payment: that one alone (no index of its own per payment), an index from the second on. */
  private readonly byExternalId = new Map<string, NewestFirstIndex | ExternalIdHolder>();
  /** Told about every stored version (durable mode). */
  persist: Persist | undefined;

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
    const key = payment.externalId === null ? undefined : liveKey(payment.merchantId, payment.externalId);
    if (key !== undefined) {
      const holder = this.liveExternalIds.get(key);
      if (holder !== undefined) return { ok: false, holder };
      if (LIVE_STATUSES.includes(payment.status)) this.liveExternalIds.set(key, payment.id);
    }
    this.byId.set(payment.id, payment);
    this.indexOf(payment.merchantId).insert(payment.id, payment.createdAt);
    indexIn(this.byStatus, statusKey(payment.merchantId, payment.status)).insert(payment.id, payment.createdAt);
    if (key !== undefined) {
      const held = this.byExternalId.get(key);
      if (held === undefined) this.byExternalId.set(key, { id: payment.id, at: payment.createdAt });
      else if (held instanceof NewestFirstIndex) held.insert(payment.id, payment.createdAt);
      else this.byExternalId.set(key, indexOfEntries([held, { id: payment.id, at: payment.createdAt }]));
    }
    this.persist?.put('payment', payment.id, payment);
    return { ok: true };
  }

  /** The live payment holding `externalId` for the merchant, if any. */
  liveHolder(merchantId: string, externalId: string): string | undefined {
    return this.liveExternalIds.get(liveKey(merchantId, externalId));
  }

  /** Replace a stored payment with its next version; frees the externalId on leaving the live statuses. */
  update(payment: Payment): void {
    const previous = this.byId.get(payment.id);
    if (!previous) throw new Error(`unknown payment ${payment.id}`);
    this.byId.set(payment.id, payment);
    this.persist?.put('payment', payment.id, payment);
    if (previous.status !== payment.status) {
      indexIn(this.byStatus, statusKey(payment.merchantId, previous.status)).remove(payment.id);
      indexIn(this.byStatus, statusKey(payment.merchantId, payment.status)).insert(payment.id, payment.createdAt);
    }
    const released = !LIVE_STATUSES.includes(payment.status);
    if (payment.externalId !== null && released) {
      const key = liveKey(payment.merchantId, payment.externalId);
      if (this.liveExternalIds.get(key) === payment.id) this.liveExternalIds.delete(key);
    }
  }

  /** One page, newest first; undefined when the cursor is not one of this merchant's payments. */
  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined {
    const all = this.indexOf(merchantId);
    let after: { at: number; id: string } | undefined;
    if (filter.cursor !== undefined) {
      // The cursor is any of the merchant's payments, even one that has since left the filtered index.
      const cursor = all.has(filter.cursor) ? this.byId.get(filter.cursor) : undefined;
      if (!cursor) return undefined;
      after = { at: cursor.createdAt, id: cursor.id };
    }
    // The narrower index walks; the other filter, if any, is checked on its (few) entries.
    const index =
      filter.externalId !== undefined
        ? this.externalIdIndex(liveKey(merchantId, filter.externalId))
        : filter.status !== undefined
          ? this.byStatus.get(statusKey(merchantId, filter.status))
          : all;
    if (!index) return { items: [], hasMore: false };
    const accept = filter.externalId !== undefined && filter.status !== undefined ? (id: string) => (this.byId.get(id) as Payment).status === filter.status : undefined;
    const page = index.page({ ...(after ? { after } : {}), limit: filter.limit, ...(accept ? { accept } : {}) });
    if (!page) return undefined;
    return { items: page.ids.map((id) => this.byId.get(id) as Payment), hasMore: page.hasMore };
  }

  /** Every payment of a merchant, newest first. */
  *all(merchantId: string, range?: TimeRange): IterableIterator<Payment> {
    const index = this.indexOf(merchantId);
    const ids = range ? index.idsBetween(range.from, range.to) : index.ids();
    for (const id of ids) yield this.byId.get(id) as Payment;
  }

  /** The payments holding an externalId as an index (a one-entry index, made for the walk, when one payment holds it). */
  private externalIdIndex(key: string): NewestFirstIndex | undefined {
    const held = this.byExternalId.get(key);
    return held === undefined || held instanceof NewestFirstIndex ? held : indexOfEntries([held]);
  }

  private indexOf(merchantId: string): NewestFirstIndex {
    return indexIn(this.byMerchant, merchantId);
  }
}

interface ExternalIdHolder {
  id: string;
  at: number;
}

function indexOfEntries(entries: ExternalIdHolder[]): NewestFirstIndex {
  const index = new NewestFirstIndex();
  for (const { id, at } of entries) index.insert(id, at);
  return index;
}

function indexIn(indexes: Map<string, NewestFirstIndex>, key: string): NewestFirstIndex {
  let index = indexes.get(key);
  if (!index) {
    index = new NewestFirstIndex();
    indexes.set(key, index);
  }
  return index;
}
