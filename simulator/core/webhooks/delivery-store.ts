// Delivery records, kept per merchant so a list or lookup can never see another merchant's
// events. Records are mutated only through this store, which keeps `updatedAt` honest.
import { randomUUID } from 'node:crypto';
import { invalidFields } from '../refusals/refusals.ts';
import type { Persist } from '../support/persist.ts';
import type { Attempt, DeliveryStatus, ListPage, WebhookDelivery, WebhookEventType, WebhookPayload } from './types.ts';

export interface DeliveryRecord {
  readonly id: string;
  readonly merchantId: string;
  readonly event: WebhookEventType;
  readonly paymentId: string | null;
  readonly payoutId: string | null;
  /** Where the latest attempt went (or the next one goes): the endpoint's URL at that attempt. */
  url: string;
  readonly createdAtMs: number;
  readonly createdAt: string;
  status: DeliveryStatus;
  attempts: Attempt[];
  nextAttemptAtMs: number | null;
  /** The bytes sent; fixed at emit. */
  rawBody: string;
  updatedAt: string;
  /** Chaos effects applied so far (only with --chaos-deliveries). */
  chaos?: { duplicated: number; reordered: number; delayed: number };
}

export interface NewDelivery {
  merchantId: string;
  event: WebhookEventType;
  paymentId: string | null;
  payoutId: string | null;
  url: string;
  rawBody: string;
  createdAtMs: number;
}

export interface DeliveryQuery {
  limit: number;
  cursor?: string;
  event?: WebhookEventType;
  status?: DeliveryStatus;
  paymentId?: string;
}

/** Newest first: createdAt descending, then id descending (docs/decisions.md, list envelope). */
function newestFirst(a: DeliveryRecord, b: DeliveryRecord): number {
  if (a.createdAtMs !== b.createdAtMs) return b.createdAtMs - a.createdAtMs;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function toDeliveryView(record: DeliveryRecord): WebhookDelivery {
  return {
    id: record.id,
    event: record.event,
    paymentId: record.paymentId,
    payoutId: record.payoutId,
    url: record.url,
    status: record.status,
    attempts: record.attempts.map((a) => ({ ...a })),
    nextAttemptAt: record.nextAttemptAtMs === null ? null : new Date(record.nextAttemptAtMs).toISOString(),
    // Parsed from the raw bytes so the view is exactly what went over the wire.
    payload: JSON.parse(record.rawBody) as WebhookPayload,
    ...(record.chaos ? { chaos: { ...record.chaos } } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export class DeliveryStore {
  private readonly byMerchant = new Map<string, Map<string, DeliveryRecord>>();
  /** Told about every change (durable mode). */
  persist: Persist | undefined;

  /** Puts back a delivery read from the state directory; returns the live record. */
  restore(record: DeliveryRecord): DeliveryRecord {
    let bucket = this.byMerchant.get(record.merchantId);
    if (!bucket) this.byMerchant.set(record.merchantId, (bucket = new Map()));
    bucket.set(record.id, record);
    return record;
  }

  /**
   * Durable mode: a delivery as the database has it (undefined: gone), not reported again. A record already held is
   * updated in place, since an attempt in flight holds that object; returns the live record.
   */
  applyRecord(merchantId: string, id: string, stored: DeliveryRecord | undefined): DeliveryRecord | undefined {
    const bucket = this.byMerchant.get(merchantId);
    const held = bucket?.get(id);
    if (!stored) {
      bucket?.delete(id);
      return undefined;
    }
    if (!held) return this.restore(stored);
    Object.assign(held, stored);
    if (!stored.chaos) delete held.chaos;
    return held;
  }

  private save(record: DeliveryRecord): void {
    this.persist?.put('delivery', record.id, record);
  }

  create(input: NewDelivery): DeliveryRecord {
    const createdAt = new Date(input.createdAtMs).toISOString();
    const record: DeliveryRecord = {
      id: randomUUID(),
      merchantId: input.merchantId,
      event: input.event,
      paymentId: input.paymentId,
      payoutId: input.payoutId,
      url: input.url,
      createdAtMs: input.createdAtMs,
      createdAt,
      status: 'pending',
      attempts: [],
      // The first attempt is due at once; while it is in flight this still names it.
      nextAttemptAtMs: input.createdAtMs,
      rawBody: input.rawBody,
      updatedAt: createdAt,
    };
    let bucket = this.byMerchant.get(input.merchantId);
    if (!bucket) this.byMerchant.set(input.merchantId, (bucket = new Map()));
    bucket.set(record.id, record);
    this.save(record);
    return record;
  }

  /** A merchant reset: every delivery of the merchant is gone. */
  forget(merchantId: string): number {
    const bucket = this.byMerchant.get(merchantId);
    if (!bucket) return 0;
    for (const id of bucket.keys()) this.persist?.delete('delivery', id);
    this.byMerchant.delete(merchantId);
    return bucket.size;
  }

  /** Whose delivery this is (a scan of the merchants: only an undo asks, for a delivery it removes). */
  merchantOf(id: string): string | undefined {
    for (const [merchantId, bucket] of this.byMerchant) if (bucket.has(id)) return merchantId;
    return undefined;
  }

  /** The live record (the dispatcher's), not a view. */
  record(merchantId: string, id: string): DeliveryRecord | undefined {
    return this.byMerchant.get(merchantId)?.get(id);
  }

  has(merchantId: string, id: string): boolean {
    return this.byMerchant.get(merchantId)?.has(id) ?? false;
  }

  get(merchantId: string, id: string): WebhookDelivery | undefined {
    const record = this.byMerchant.get(merchantId)?.get(id);
    return record && toDeliveryView(record);
  }

  /** Every delivery of the merchant, newest first (for the control API and tests). */
  all(merchantId: string): WebhookDelivery[] {
    return [...(this.byMerchant.get(merchantId)?.values() ?? [])].sort(newestFirst).map(toDeliveryView);
  }

  list(merchantId: string, query: DeliveryQuery): ListPage<WebhookDelivery> {
    const bucket = this.byMerchant.get(merchantId) ?? new Map<string, DeliveryRecord>();
    let after: DeliveryRecord | undefined;
    if (query.cursor !== undefined) {
      after = bucket.get(query.cursor);
      if (!after) throw invalidFields([{ path: ['cursor'], message: 'Unknown cursor' }]);
    }
    // The cursor is a position in the full order, so it stays valid even when the item it names
    // does not match the filters (or changed status since the previous page).
    const items = [...bucket.values()]
      .filter(
        (r) =>
          (query.event === undefined || r.event === query.event) &&
          (query.status === undefined || r.status === query.status) &&
          (query.paymentId === undefined || r.paymentId === query.paymentId) &&
          (after === undefined || newestFirst(after, r) < 0),
      )
      .sort(newestFirst);
    const page = items.slice(0, query.limit);
    const hasMore = items.length > query.limit;
    const last = page[page.length - 1];
    return { data: page.map(toDeliveryView), nextCursor: hasMore && last ? last.id : null, hasMore };
  }

  recordAttempt(record: DeliveryRecord, attempt: Attempt, nowIso: string): void {
    record.attempts.push(attempt);
    record.updatedAt = nowIso;
    this.save(record);
  }

  /** The merchant changed the endpoint URL: the next attempt goes there. */
  retarget(record: DeliveryRecord, url: string, nowIso: string): void {
    record.url = url;
    record.updatedAt = nowIso;
    this.save(record);
  }

  countChaos(record: DeliveryRecord, effects: readonly ('duplicate' | 'reorder' | 'delay')[]): void {
    const counts = (record.chaos ??= { duplicated: 0, reordered: 0, delayed: 0 });
    for (const effect of effects) {
      if (effect === 'duplicate') counts.duplicated += 1;
      else if (effect === 'reorder') counts.reordered += 1;
      else counts.delayed += 1;
    }
    this.save(record);
  }

  scheduleNext(record: DeliveryRecord, dueAtMs: number, nowIso: string): void {
    record.nextAttemptAtMs = dueAtMs;
    record.updatedAt = nowIso;
    this.save(record);
  }

  finish(record: DeliveryRecord, status: 'succeeded' | 'failed', nowIso: string): void {
    record.status = status;
    record.nextAttemptAtMs = null;
    record.updatedAt = nowIso;
    this.save(record);
  }
}
