// In-memory payments: by id, per-merchant newest-first index, and the live-externalId index that
// makes "check externalId, then insert" one synchronous step (no await between them, so N
// concurrent creates with one externalId cannot both pass the check). Filtered lists read
// per-status and per-externalId indexes, and time ranges are a binary search: with 200k payments
// no list, summary or export scans payments it does not return.
import { NewestFirstEntries, type IndexEntry } from '../support/newest-first-index.ts';
import type { Persist } from '../support/persist.ts';
import type { Payment, PaymentStatus } from './types.ts';
import { LIVE_STATUSES } from './types.ts';

export interface PaymentListFilter {
  cursor?: string | undefined;
  limit: number;
  status?: PaymentStatus | undefined;
  externalId?: string | undefined;
}

export type InsertResult = { ok: true } | { ok: false; holder: string };

/** What the payment service needs of storage; the composition root may wrap it. */
export interface PaymentRepository {
  get(id: string): Payment | undefined;
  getOwned(merchantId: string, id: string): Payment | undefined;
  insert(payment: Payment): InsertResult;
  update(payment: Payment): void;
  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined;
  /** Newest first; only those created within `range` (inclusive) when given. */
  all(merchantId: string, range?: TimeRange): IterableIterator<Payment>;
  /** A merchant reset: every payment of the merchant is gone. Returns their ids. */
  forget(merchantId: string): string[];
  /** Durable mode: a stored version put in place (or removed) without being reported; returns the one replaced. */
  applyRecord?(id: string, payment: Payment | undefined): Payment | undefined;
}

export interface TimeRange {
  from: number;
  to: number;
}

/**
 * A merchant's payments, newest first, all of them and per status (an index per status once one has it), and by
 * externalId (keyed by the externalId string the payment keeps: no key is built per lookup).
 */
interface MerchantIndexes {
  all: NewestFirstEntries;
  byStatus: Partial<Record<PaymentStatus, NewestFirstEntries>>;
  byExternalId: Map<string, ExternalIdHolders>;
}

/**
 * The payments of a merchant that have held an externalId: most hold it alone (that payment's entry, no index of
 * its own), an index from the second on; and the live one, if any.
 */
interface ExternalIdHolders {
  live: string | undefined;
  one: IndexEntry | NewestFirstEntries;
}

export class PaymentStore implements PaymentRepository {
  private readonly byId = new Map<string, Payment>();
  private readonly byMerchant = new Map<string, MerchantIndexes>();
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
    const { externalId } = payment;
    const merchant = this.indexesOf(payment.merchantId);
    const holders = externalId === null ? undefined : merchant.byExternalId.get(externalId);
    if (holders?.live !== undefined) return { ok: false, holder: holders.live };
    if (this.byId.has(payment.id)) throw new Error(`duplicate id ${payment.id}`);
    const live = LIVE_STATUSES.includes(payment.status) ? payment.id : undefined;
    // One entry for every index the payment is in (entries never change: a payment's id and createdAt do not).
    const entry: IndexEntry = { at: payment.createdAt, id: payment.id };
    this.byId.set(payment.id, payment);
    merchant.all.add(entry);
    statusIndex(merchant, payment.status).add(entry);
    if (externalId !== null) {
      if (holders === undefined) merchant.byExternalId.set(externalId, { live, one: entry });
      else {
        if (live !== undefined) holders.live = live;
        if (holders.one instanceof NewestFirstEntries) holders.one.add(entry);
        else holders.one = entriesOf([holders.one, entry]);
      }
    }
    this.persist?.put('payment', payment.id, payment);
    return { ok: true };
  }

  /** Replace a stored payment with its next version; frees the externalId on leaving the live statuses. */
  update(payment: Payment): void {
    const previous = this.byId.get(payment.id);
    if (!previous) throw new Error(`unknown payment ${payment.id}`);
    this.byId.set(payment.id, payment);
    this.persist?.put('payment', payment.id, payment);
    if (previous.status !== payment.status) {
      // Indexed under the time it was first stored with (createdAt does not change).
      const entry: IndexEntry = { at: previous.createdAt, id: payment.id };
      const merchant = this.indexesOf(payment.merchantId);
      statusIndex(merchant, previous.status).delete(entry);
      statusIndex(merchant, payment.status).add(entry);
    }
    const released = !LIVE_STATUSES.includes(payment.status);
    if (payment.externalId !== null && released) {
      const holders = this.byMerchant.get(payment.merchantId)?.byExternalId.get(payment.externalId);
      if (holders?.live === payment.id) holders.live = undefined;
    }
  }

  /**
   * Puts a payment's stored version in place (or removes it: `undefined`) without reporting it: the durable state
   * undoing a refused batch or applying another process's commit. Indexes follow; returns the version replaced.
   */
  applyRecord(id: string, payment: Payment | undefined): Payment | undefined {
    const previous = this.byId.get(id);
    if (previous) this.unindex(previous);
    if (payment) {
      const persist = this.persist;
      this.persist = undefined;
      try {
        // Another process's holder of an externalId wins here: the database has already decided between them.
        const holders =
          payment.externalId === null ? undefined : this.byMerchant.get(payment.merchantId)?.byExternalId.get(payment.externalId);
        if (holders && LIVE_STATUSES.includes(payment.status)) holders.live = undefined;
        this.insert(payment);
      } finally {
        this.persist = persist;
      }
    }
    return previous;
  }

  /** Takes a payment out of every index (applyRecord puts its other version back in). */
  private unindex(payment: Payment): void {
    this.byId.delete(payment.id);
    const merchant = this.byMerchant.get(payment.merchantId);
    if (!merchant) return;
    const entry: IndexEntry = { at: payment.createdAt, id: payment.id };
    merchant.all.delete(entry);
    merchant.byStatus[payment.status]?.delete(entry);
    if (payment.externalId === null) return;
    const holders = merchant.byExternalId.get(payment.externalId);
    if (!holders) return;
    if (holders.live === payment.id) holders.live = undefined;
    if (holders.one instanceof NewestFirstEntries) {
      holders.one.delete(entry);
      if (holders.one.size === 0 && holders.live === undefined) merchant.byExternalId.delete(payment.externalId);
    } else if (holders.one.id === payment.id) merchant.byExternalId.delete(payment.externalId);
  }

  /** One page, newest first; undefined when the cursor is not one of this merchant's payments. */
  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } | undefined {
    const merchant = this.byMerchant.get(merchantId);
    let after: { at: number; id: string } | undefined;
    if (filter.cursor !== undefined) {
      // The cursor is any of the merchant's payments, even one that has since left the filtered index.
      const cursor = this.getOwned(merchantId, filter.cursor);
      if (!cursor) return undefined;
      after = { at: cursor.createdAt, id: cursor.id };
    }
    // The narrower index walks; the other filter, if any, is checked on its (few) entries.
    const index =
      filter.externalId !== undefined
        ? this.externalIdIndex(merchant, filter.externalId)
        : filter.status !== undefined
          ? merchant?.byStatus[filter.status]
          : merchant?.all;
    if (!index) return { items: [], hasMore: false };
    const accept =
      filter.externalId !== undefined && filter.status !== undefined
        ? (id: string) => (this.byId.get(id) as Payment).status === filter.status
        : undefined;
    const page = index.pageAfter({ ...(after ? { after } : {}), limit: filter.limit, ...(accept ? { accept } : {}) });
    return { items: page.ids.map((id) => this.byId.get(id) as Payment), hasMore: page.hasMore };
  }

  /** Every payment of a merchant, newest first. */
  *all(merchantId: string, range?: TimeRange): IterableIterator<Payment> {
    const index = this.indexesOf(merchantId).all;
    const ids = range ? index.idsBetween(range.from, range.to) : index.ids();
    for (const id of ids) yield this.byId.get(id) as Payment;
  }

  forget(merchantId: string): string[] {
    const merchant = this.byMerchant.get(merchantId);
    if (!merchant) return [];
    const ids = [...merchant.all.ids()];
    for (const id of ids) {
      this.byId.delete(id);
      this.persist?.delete('payment', id);
    }
    this.byMerchant.delete(merchantId);
    return ids;
  }

  /** The payments holding an externalId as an index (a one-entry index, made for the walk, when one payment holds it). */
  private externalIdIndex(merchant: MerchantIndexes | undefined, externalId: string): NewestFirstEntries | undefined {
    const holders = merchant?.byExternalId.get(externalId);
    if (holders === undefined) return undefined;
    return holders.one instanceof NewestFirstEntries ? holders.one : entriesOf([holders.one]);
  }

  private indexesOf(merchantId: string): MerchantIndexes {
    let indexes = this.byMerchant.get(merchantId);
    if (!indexes) {
      indexes = { all: new NewestFirstEntries(), byStatus: {}, byExternalId: new Map() };
      this.byMerchant.set(merchantId, indexes);
    }
    return indexes;
  }
}

function entriesOf(entries: IndexEntry[]): NewestFirstEntries {
  const index = new NewestFirstEntries();
  for (const entry of entries) index.add(entry);
  return index;
}

function statusIndex(merchant: MerchantIndexes, status: PaymentStatus): NewestFirstEntries {
  let index = merchant.byStatus[status];
  if (!index) {
    index = new NewestFirstEntries();
    merchant.byStatus[status] = index;
  }
  return index;
}
