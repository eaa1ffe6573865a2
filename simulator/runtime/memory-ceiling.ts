// The ceiling on what is held in memory. Every record lives in the process's memory (in memory mode, and as the
// working set of durable mode): payments, webhook deliveries with their attempts, ledger entries, payouts, keys,
// merchants, endpoints, checkout sessions. Past what the heap can hold Node aborts (a V8 "heap out of memory", exit
// 134) and every unsaved change is gone. So requests that may store more stop, answered 507 with what to do, once the
// records are estimated to take --max-stored-mb of heap (by default a share of the heap limit). The estimate is a
// weight per kind of record, measured, plus what grows inside a record (a delivery's body and attempts), so it holds
// whatever the mix. --max-payments, when given, also caps the payments alone.
import { getHeapStatistics } from 'node:v8';
import type { PaymentChangeListener } from '../core/payments/index.ts';
import type { Payment } from '../core/payments/types.ts';
import type { Persist } from '../core/support/persist.ts';
import { ApiError } from '../edge/http/errors.ts';
import type { Stage } from '../edge/http/pipeline.ts';

/**
 * Heap one record of a kind costs in memory mode, with its index and tally entries and its entry here, rounded up from
 * `npx tsx bench/memory-weights.ts` (payment 1.2 KB with a 200-character title, a test delivery 1.4 KB, an attempt
 * 80–100 B, a key 260 B). Kinds not measured are weighed like the nearest measured one.
 */
const BYTES: Readonly<Record<string, number>> = {
  payment: 1400,
  payout: 1400,
  transaction: 900,
  'checkout-session': 2000,
  merchant: 900,
  endpoint: 900,
  key: 400,
};
/** A delivery without its body and attempts, which are counted as they are. */
const DELIVERY_BYTES = 1300;
const ATTEMPT_BYTES = 120;
/** Any other record (settings, the clock, meta): few, small. */
const OTHER_BYTES = 400;

/**
 * Durable mode keeps each record's committed JSON text beside the live object (the undo of a refused batch puts it
 * back) and the records map it was read into: about twice the heap (bench/memory-weights.ts: 2.0× for a payment,
 * 1.4× for a delivery, 2.5× for an attempt).
 */
export const DURABLE_COPIES = 2;

/** The share of the heap limit the records may take by default (the rest: requests in flight, garbage not yet collected, code). */
const HEAP_SHARE = 0.15;
const MIB = 2 ** 20;

/** The default ceiling in bytes: a share of this process's heap limit, never under 4 MiB. */
export function defaultMaxStoredBytes(heapLimitBytes = getHeapStatistics().heap_size_limit): number {
  return Math.max(4 * MIB, Math.floor(heapLimitBytes * HEAP_SHARE));
}

/** What one record is estimated to cost in memory mode. */
export function estimateBytes(kind: string, value: unknown): number {
  if (kind === 'delivery') {
    const delivery = value as { rawBody?: string; attempts?: unknown[] };
    return DELIVERY_BYTES + (delivery.rawBody?.length ?? 0) + (delivery.attempts?.length ?? 0) * ATTEMPT_BYTES;
  }
  return BYTES[kind] ?? OTHER_BYTES;
}

/**
 * The estimated bytes of every record held, kept up to date as a sink beside (or instead of) the database's: each
 * store reports every record it puts or deletes (support/persist.ts), and durable mode also reports what it puts back
 * (an undo, another process's change).
 */
export class StoredObjectTally implements Persist {
  private readonly byKind = new Map<string, Map<string, number>>();
  /** Estimated bytes of every record held. */
  total = 0;

  /** `copies`: how many times each record is held (DURABLE_COPIES in durable mode). */
  constructor(private readonly copies = 1) {}

  put(kind: string, id: string, value: unknown): void {
    this.set(kind, id, estimateBytes(kind, value) * this.copies);
  }

  delete(kind: string, id: string): void {
    this.set(kind, id, 0);
  }

  private set(kind: string, id: string, bytes: number): void {
    let ids = this.byKind.get(kind);
    if (!ids) this.byKind.set(kind, (ids = new Map()));
    this.total += bytes - (ids.get(id) ?? 0);
    if (bytes === 0) ids.delete(id);
    else ids.set(id, bytes);
  }
}

/** Sends every change to both sinks (the database's and the tally). */
export function bothSinks(first: Persist, second: Persist): Persist {
  return {
    put: (kind, id, value) => {
      first.put(kind, id, value);
      second.put(kind, id, value);
    },
    delete: (kind, id) => {
      first.delete(kind, id);
      second.delete(kind, id);
    },
  };
}

/** Counts the payments stored, per merchant (a merchant reset takes its own away): what --max-payments caps. */
export class StoredPaymentCount implements PaymentChangeListener {
  private readonly perMerchant = new Map<string, number>();
  total = 0;

  changed(previous: Payment | undefined, next: Payment): void {
    if (previous !== undefined) return;
    this.perMerchant.set(next.merchantId, (this.perMerchant.get(next.merchantId) ?? 0) + 1);
    this.total += 1;
  }

  removed(payment: Payment): void {
    this.perMerchant.set(payment.merchantId, (this.perMerchant.get(payment.merchantId) ?? 1) - 1);
    this.total -= 1;
  }

  forgotten(merchantId: string): void {
    this.total -= this.perMerchant.get(merchantId) ?? 0;
    this.perMerchant.delete(merchantId);
  }
}

export interface MemoryCeiling {
  tally: StoredObjectTally;
  maxBytes: number;
  /** --max-payments, when given. */
  payments?: { count: StoredPaymentCount; max: number };
}

/** Requests that free or only read pass at the ceiling: resets, the web3 proxy (JSON-RPC reads), health. */
const PASS_AT_CEILING = ['/v1/web3/', '/control/v1/reset', '/control/v1/merchant/reset', '/control/v1/health'];

/** A POST may store a new record (a payment, a delivery, a key, a payout, a merchant…); PUT, PATCH and DELETE change what is held. */
function mayStore(method: string, path: string): boolean {
  if (method !== 'POST') return false;
  if (!path.startsWith('/v1/') && !path.startsWith('/control/v1/')) return false;
  return !PASS_AT_CEILING.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
}

const isCreatePayment = (method: string, path: string): boolean =>
  method === 'POST' && (path === '/v1/payments' || path === '/v1/payments/');

/** Refuses with 507 a request that may store more once the ceiling is reached; every other request passes. */
export function memoryCeilingStage(ceiling: MemoryCeiling): Stage {
  const { tally, maxBytes, payments } = ceiling;
  const refuse = (method: string, path: string): void => {
    if (payments && payments.count.total >= payments.max && isCreatePayment(method, path))
      throw new ApiError(
        507,
        `Insufficient storage: this simulator holds ${payments.max} payments, the most --max-payments allows; reset a merchant (stablepay reset --merchant) or start with a higher --max-payments`,
      );
    if (tally.total < maxBytes || !mayStore(method, path)) return;
    const mib = Math.round(maxBytes / MIB);
    throw new ApiError(
      507,
      `Insufficient storage: the records this simulator holds (payments, webhook deliveries and their attempts, ledger entries, keys…) are estimated at ${mib} MiB, the most its memory allows (--max-stored-mb ${mib}); reset a merchant (stablepay reset --merchant) or start with a higher --max-stored-mb and a larger heap (node --max-old-space-size)`,
    );
  };
  return {
    name: 'memory-ceiling',
    middleware: async (c, next) => {
      refuse(c.req.method, c.req.path);
      await next();
    },
    direct: { before: (request) => refuse(request.method, request.path) },
  };
}
