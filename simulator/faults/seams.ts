// The seams a fault can wrap, by name, and the fold that puts the named faults' wrappers around
// the real implementation. The composition root (app.ts) asks for a seam only when faults were
// named; otherwise the real implementation is used as is and no code of this folder runs.
import type { MiddlewareHandler } from 'hono';
import type { ApiKeyStore } from '../core/api-keys/api-key-store.ts';
import type { IdentityEnv } from '../edge/v1/identify.ts';
import type { MerchantTime } from '../core/clock/virtual-clock.ts';
import type { PaymentRepository, PriceCreateRequest, RetrieveView, ValidateCreateRequest } from '../core/payments/index.ts';
import type { PaymentOperations } from '../edge/v1/payment-routes.ts';
import type { openPayment, transition } from '../core/payments/state-machine.ts';
import type { BuildAttemptRequest, RetryScheduler, WrapSend } from '../core/webhooks/index.ts';
import type { FaultName } from './fault-definitions.ts';

export interface Seams {
  /** Payment storage: lookups, the live-externalId index, list pages. */
  'payment-store': PaymentRepository;
  /** Create-body validation, before pricing. */
  'validate-create': ValidateCreateRequest;
  /** Fees of a valid create request. */
  pricing: PriceCreateRequest;
  /** The "(none) -> ACTIVE" row. */
  'open-payment': typeof openPayment;
  /** The payment transition table. */
  transition: typeof transition;
  /** What /v1/payments routes call (create, get, cancel, list). */
  'payment-operations': PaymentOperations;
  /** The retrieve view of a payment. */
  'payment-view': RetrieveView;
  /** The largest list `limit` accepted. */
  'list-limit': number;
  /** API-key lookup by the presented key. */
  'key-lookup': Pick<ApiKeyStore, 'findByKey'>;
  /** The clock a key's expiry is judged by. */
  'key-expiry-clock': MerchantTime;
  /** The /v1 authentication middleware. */
  'require-auth': MiddlewareHandler<IdentityEnv>;
  /** The /v1 rate-limit middleware. */
  'rate-limit': MiddlewareHandler<IdentityEnv>;
  /** The signed request of one webhook attempt. */
  'webhook-request': BuildAttemptRequest;
  /** When the webhook attempt after a failed one is due. */
  'webhook-schedule': RetryScheduler;
  /** Real-time limit of one webhook attempt. */
  'webhook-timeout-ms': number;
  /** Each webhook attempt's send and what its answer counts as (the real one: sent as built, judged by its status). */
  'webhook-send': WrapSend;
}

export type SeamName = keyof Seams;

/** What one fault does: a wrapper per seam it bends (most bend one). */
export type FaultWrappers = { [K in SeamName]?: (base: Seams[K]) => Seams[K] };

/** Puts the wrappers of the named faults around `base`. */
export type SeamDecorator = <K extends SeamName>(seam: K, base: Seams[K]) => Seams[K];

/**
 * A decorator for one simulator instance. `wrappersOf` is called once per fault here, so a fault
 * whose wrappers share state (two seams of one bug) gets fresh state per simulator.
 */
export function seamDecorator(names: readonly FaultName[], wrappersOf: (name: FaultName) => FaultWrappers): SeamDecorator {
  const active = names.map(wrappersOf);
  return <K extends SeamName>(seam: K, base: Seams[K]): Seams[K] => {
    let current = base;
    for (const wrappers of active) {
      const wrap = wrappers[seam] as ((inner: Seams[K]) => Seams[K]) | undefined;
      if (wrap) current = wrap(current);
    }
    return current;
  };
}
