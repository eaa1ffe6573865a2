// Composes the webhook subsystem: stores, dispatcher and routes behind the WebhookService
// interface the simulator core integrates against.
import { packageVersion } from '../../contract/package-root.ts';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import { DeliveryStore } from './delivery-store.ts';
import { DeliveryDispatcher, type AttemptReport } from './dispatcher.ts';
import type { PlanChaos } from './chaos.ts';
import { EndpointStore } from './endpoint-store.ts';
import { buildAttemptRequest, type BuildAttemptRequest } from './delivery-headers.ts';
import type { FetchLike } from './http-post.ts';
import { buildPayload, serializePayload } from './payload.ts';
import { DEFAULT_RETRY_DELAYS_MS, retryScheduler, validateRetryDelays, type RetryScheduler } from './retry-schedule.ts';
import { webhookRoutes, type WebhookRouter } from './routes.ts';
import type { WebhookDelivery, WebhookEvent } from './types.ts';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONCURRENCY_PER_ORIGIN = 32;

export interface WebhookServiceOptions {
  clock: VirtualClock;
  /** Real-time limit for one attempt's HTTP exchange (spec §8: 10 seconds). */
  timeoutMs?: number;
  /** Delays before attempts 2..n; the attempt count is length + 1 (spec §6: 7 attempts). */
  retryDelaysMs?: number[];
  userAgent?: string;
  fetch?: FetchLike;
  /** Concurrent attempts per receiver origin; more wait in a queue (default 32). */
  concurrencyPerOrigin?: number;
  /** Replaces the scheduler built from retryDelaysMs. */
  nextAttempt?: RetryScheduler;
  /** Replaces the signed request of an attempt (body, headers). */
  buildRequest?: BuildAttemptRequest;
  /** Told about every recorded attempt (the simulator's delivery log). */
  onAttempt?: (report: AttemptReport) => void;
  /** Opt-in chaos deliveries (chaos.ts); none by default. */
  chaos?: PlanChaos;
}

export interface WebhookService {
  /** Records the delivery and starts attempt 1 at once (not awaited by anyone); no-op without an enabled endpoint. */
  emit(merchantId: string, event: WebhookEvent): void;
  /** Mounted at /v1/webhooks; reads c.get('merchantId'); refusals reach the app's onError. */
  routes(): WebhookRouter;
  /** Cancels retry timers, aborts in-flight requests; resolves when nothing more will change. */
  close(): Promise<void>;
  /** Resolves once no attempt is in flight (tests, benchmarks); the clock never waits for this. */
  idle(): Promise<void>;
  /** A merchant's deliveries, newest first (control API, tests). */
  deliveries(merchantId: string): WebhookDelivery[];
}

export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  const { clock } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be > 0, got ${timeoutMs}`);
  const retryDelaysMs = [...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)];
  validateRetryDelays(retryDelaysMs);

  const endpoints = new EndpointStore();
  const deliveries = new DeliveryStore();
  const dispatcher = new DeliveryDispatcher({
    clock,
    deliveries,
    secretFor: (merchantId) => endpoints.secretFor(merchantId),
    urlFor: (merchantId) => endpoints.get(merchantId)?.url,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeoutMs,
    nextAttempt: options.nextAttempt ?? retryScheduler(retryDelaysMs),
    buildRequest: options.buildRequest ?? buildAttemptRequest,
    userAgent: options.userAgent ?? defaultUserAgent(),
    concurrencyPerOrigin: options.concurrencyPerOrigin ?? DEFAULT_CONCURRENCY_PER_ORIGIN,
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
    ...(options.chaos ? { chaos: options.chaos } : {}),
  });

  const enqueue = (merchantId: string, event: WebhookEvent) => {
    // Built first: an ill-formed event throws before anything is recorded.
    const createdAtMs = clock.now();
    const rawBody = serializePayload(buildPayload(event, new Date(createdAtMs).toISOString()));
    // After close() the simulator is shutting down: nothing new is recorded or sent.
    if (dispatcher.closed) return undefined;
    const endpoint = endpoints.get(merchantId);
    if (!endpoint?.enabled) return undefined;
    const record = deliveries.create({
      merchantId,
      event: event.type,
      paymentId: event.paymentId ?? null,
      payoutId: event.payoutId ?? null,
      // Where attempt 1 goes; each retry goes to the endpoint's URL at that time (docs/decisions.md).
      url: endpoint.url,
      rawBody,
      createdAtMs,
    });
    dispatcher.start(record);
    return record;
  };

  return {
    emit(merchantId, event) {
      enqueue(merchantId, event);
    },
    routes: () => webhookRoutes({ clock, endpoints, deliveries, enqueue }),
    close: () => dispatcher.close(),
    idle: () => dispatcher.idle(),
    deliveries: (merchantId) => deliveries.all(merchantId),
  };
}

let userAgent: string | undefined;

/** `stablepay-simulator/<package version>` (docs/decisions.md). */
export function defaultUserAgent(): string {
  if (userAgent === undefined) {
    userAgent = `stablepay-simulator/${packageVersion}`;
  }
  return userAgent;
}
