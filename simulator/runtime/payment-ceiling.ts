// The ceiling on payments held in memory. Every payment lives in the process's memory (in memory mode, and as the
// working set of durable mode), with its deliveries, ledger entries and index entries; past what the heap can hold,
// Node aborts (a V8 "heap out of memory", exit 134) and every unsaved change is gone. So creates stop, answered 507
// with what to do, at a ceiling below that: --max-payments, by default sized to this process's heap limit.
import { getHeapStatistics } from 'node:v8';
import type { PaymentChangeListener } from '../core/payments/index.ts';
import type { Payment } from '../core/payments/types.ts';
import { ApiError } from '../edge/http/errors.ts';
import type { Stage } from '../edge/http/pipeline.ts';

/**
 * Heap a stored payment costs with what comes with it (two webhook deliveries with their attempts, ledger entries,
 * index and tally entries), rounded up: about 1 KB alone was measured (48,889 payments filled a 48 MB heap).
 */
const BYTES_PER_PAYMENT = 4096;

/** Half the heap limit (the rest for requests in flight and garbage not yet collected) over a payment's cost. */
export function defaultMaxPayments(heapLimitBytes = getHeapStatistics().heap_size_limit): number {
  return Math.max(1000, Math.floor(heapLimitBytes / 2 / BYTES_PER_PAYMENT));
}

/** Counts the payments stored, per merchant (a merchant reset takes its own away). */
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

/** Refuses POST /v1/payments with 507 once `count.total` reached `max`; every other request passes. */
export function paymentCeilingStage(count: StoredPaymentCount, max: number): Stage {
  const refuse = (method: string, path: string): void => {
    if (method !== 'POST' || count.total < max || (path !== '/v1/payments' && path !== '/v1/payments/')) return;
    throw new ApiError(
      507,
      `Insufficient storage: this simulator holds ${max} payments, the most its memory allows (--max-payments); reset a merchant (stablepay reset --merchant) or start with a higher --max-payments and more memory`,
    );
  };
  return {
    name: 'payment-ceiling',
    middleware: async (c, next) => {
      refuse(c.req.method, c.req.path);
      await next();
    },
    direct: { before: (request) => refuse(request.method, request.path) },
  };
}
