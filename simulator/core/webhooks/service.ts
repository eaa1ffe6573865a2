// Composes the webhook subsystem: stores and dispatcher behind the WebhookService
// interface the simulator core integrates against.
import { packageVersion } from '@stablepay/contract/package-root';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import type { Persist } from '../support/persist.ts';
import { DeliveryStore, type DeliveryRecord } from './delivery-store.ts';
import { DeliveryDispatcher, type AttemptReport } from './dispatcher.ts';
import { chaosSend, type PlanChaos, type WrapSend } from './chaos.ts';
import { EndpointStore } from './endpoint-store.ts';
import { buildAttemptRequest, type BuildAttemptRequest } from './delivery-headers.ts';
import type { FetchLike } from './http-post.ts';
import type { ListenerTargets } from './listener-registry.ts';
import { buildPayload, serializePayload } from './payload.ts';
import { DEFAULT_RETRY_DELAYS_MS, retryScheduler, validateRetryDelays, type RetryScheduler } from './retry-schedule.ts';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from './types.ts';

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
  /** A wrapper of each attempt's send, inside the chaos (the composition root's seam); none by default. */
  wrapSend?: WrapSend;
  /**
   * Where endpoints and deliveries report changes (durable mode, the memory ceiling's tally) and, in durable mode,
   * what an attempt waits for before it goes out.
   */
  persistence?: { persist: Persist; durable?: (record: DeliveryRecord, attempt: number) => Promise<boolean | undefined | void> };
  /** Listener sessions (`stablepay listen`) that get every event of their merchant besides its endpoint; none when absent. */
  listeners?: ListenerTargets;
}

/** Endpoints and deliveries read back from a state directory. */
export interface StoredWebhooks {
  endpoints: Iterable<[merchantId: string, stored: { record: WebhookEndpoint; secret: string }]>;
  deliveries: Iterable<DeliveryRecord>;
}

/** What the /v1/webhooks routes work on (mounted by the composition root, edge/v1/webhook-routes.ts). */
export interface WebhookConfiguration {
  clock: VirtualClock;
  endpoints: EndpointStore;
  deliveries: DeliveryStore;
  /** Records and starts a delivery; undefined when the merchant has no enabled endpoint. */
  enqueue(merchantId: string, event: WebhookEvent): DeliveryRecord | undefined;
}

export interface WebhookService {
  /** Records the delivery and starts attempt 1 at once (not awaited by anyone); no-op without an enabled endpoint. */
  emit(merchantId: string, event: WebhookEvent): void;
  /** The endpoint configuration the /v1/webhooks routes serve; absent from a service that delivers nothing (a test's). */
  readonly configuration?: WebhookConfiguration;
  /** Cancels retry timers, aborts in-flight requests; resolves when nothing more will change. */
  close(): Promise<void>;
  /** Resolves once no attempt is in flight (tests, benchmarks); the clock never waits for this. */
  idle(): Promise<void>;
  /** A merchant's deliveries, newest first (control API, tests). */
  deliveries(merchantId: string): WebhookDelivery[];
  /** Durable mode, at start: puts back endpoints and deliveries, and resumes every pending delivery. */
  restore?(stored: StoredWebhooks): void;
  /** A merchant's world starts again (a merchant reset): its deliveries are gone, its endpoint and secret stay. */
  forget?(merchantId: string): number;
  /**
   * Durable mode: an endpoint (keyed by merchant) or a delivery as the database has it (undefined: gone), not
   * reported again. A delivery put back by an undo is resumed here (its attempt's outcome was not kept, so the
   * attempt goes again); one another process made is that process's to send.
   */
  applyRecord?(kind: 'endpoint' | 'delivery', id: string, value: unknown, origin: { remote: boolean }): void;
  /** Durable mode on a shared database: a pending delivery whose lease ran out is taken up here (its next attempt). */
  resumeDelivery?(id: string): void;
}

export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  const { clock } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be > 0, got ${timeoutMs}`);
  const retryDelaysMs = [...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)];
  validateRetryDelays(retryDelaysMs);

  const endpoints = new EndpointStore();
  const deliveries = new DeliveryStore();
  // Restoring reports nothing, so the sink can be set before it.
  endpoints.persist = options.persistence?.persist;
  deliveries.persist = options.persistence?.persist;
  const shared = {
    clock,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeoutMs,
    nextAttempt: options.nextAttempt ?? retryScheduler(retryDelaysMs),
    buildRequest: options.buildRequest ?? buildAttemptRequest,
    userAgent: options.userAgent ?? defaultUserAgent(),
    concurrencyPerOrigin: options.concurrencyPerOrigin ?? DEFAULT_CONCURRENCY_PER_ORIGIN,
    ...(options.chaos || options.wrapSend ? { wrapSend: composeSends(options.wrapSend, options.chaos) } : {}),
  };
  const dispatcher = new DeliveryDispatcher({
    ...shared,
    deliveries,
    secretFor: (merchantId) => endpoints.secretFor(merchantId),
    urlFor: (merchantId) => endpoints.get(merchantId)?.url,
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
    ...(options.persistence?.durable ? { beforeSend: options.persistence.durable } : {}),
  });
  // Listener deliveries are kept apart, keyed by listener id where the endpoint's are keyed by merchant: they are the
  // CLI's (never in GET /v1/webhooks/deliveries, never durable), retried on the same schedule, signed with the
  // listener's secret. A removed listener gets no further attempt (its URL and secret are gone).
  const listeners = options.listeners;
  const listenerDeliveries = new DeliveryStore();
  const onListenerAttempt = options.onAttempt;
  const listenerDispatcher = new DeliveryDispatcher({
    ...shared,
    deliveries: listenerDeliveries,
    dropWhenGone: true,
    secretFor: (listenerId) => listeners?.byId(listenerId)?.secret,
    urlFor: (listenerId) => listeners?.byId(listenerId)?.url,
    ...(onListenerAttempt ? { onAttempt: (report) => onListenerAttempt({ ...report, merchant: `listener ${report.merchant}` }) } : {}),
  });

  const enqueue = (merchantId: string, event: WebhookEvent) => {
    // Built first: an ill-formed event throws before anything is recorded.
    const createdAtMs = clock.for(merchantId).now();
    const rawBody = serializePayload(buildPayload(event, new Date(createdAtMs).toISOString()));
    // After close() the simulator is shutting down: nothing new is recorded or sent.
    if (dispatcher.closed) return undefined;
    for (const listener of listeners?.forEvent(merchantId, event.type) ?? []) {
      const copy = listenerDeliveries.create({
        merchantId: listener.id,
        event: event.type,
        paymentId: event.paymentId ?? null,
        payoutId: event.payoutId ?? null,
        url: listener.url,
        rawBody,
        createdAtMs,
      });
      listenerDispatcher.start(copy);
    }
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
    configuration: { clock, endpoints, deliveries, enqueue },
    close: async () => {
      await Promise.all([dispatcher.close(), listenerDispatcher.close()]);
    },
    idle: async () => {
      await Promise.all([dispatcher.idle(), listenerDispatcher.idle()]);
    },
    deliveries: (merchantId) => deliveries.all(merchantId),
    forget(merchantId) {
      dispatcher.forget(merchantId);
      return deliveries.forget(merchantId);
    },
    restore(stored) {
      for (const [merchantId, endpoint] of stored.endpoints) endpoints.restore(merchantId, endpoint);
      const restored = [...stored.deliveries].map((record) => deliveries.restore(record));
      // Oldest first, so retries that fell due while the simulator was down go out in their order.
      restored.sort((a, b) => (a.nextAttemptAtMs ?? 0) - (b.nextAttemptAtMs ?? 0));
      for (const record of restored) dispatcher.resume(record);
    },
    resumeDelivery(id) {
      const merchantId = deliveries.merchantOf(id);
      const record = merchantId === undefined ? undefined : deliveries.record(merchantId, id);
      if (record) dispatcher.resume(record);
    },
    applyRecord(kind, id, value, origin) {
      if (kind === 'endpoint') {
        endpoints.applyRecord(id, value as { record: WebhookEndpoint; secret: string } | undefined);
        return;
      }
      const stored = value as DeliveryRecord | undefined;
      const merchantId = stored?.merchantId ?? deliveries.merchantOf(id);
      if (merchantId === undefined) return;
      dispatcher.drop(id);
      const live = deliveries.applyRecord(merchantId, id, stored);
      if (live && !origin.remote) dispatcher.resume(live);
    },
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

/** The given wrapper next to the wire, the chaos around it. */
function composeSends(inner: WrapSend | undefined, chaos: PlanChaos | undefined): WrapSend {
  const outer = chaos ? chaosSend(chaos) : undefined;
  return (send, closing) => {
    const wrapped = inner ? inner(send, closing) : send;
    return outer ? outer(wrapped, closing) : wrapped;
  };
}
