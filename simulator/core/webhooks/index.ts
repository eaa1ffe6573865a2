// The webhook subsystem of the simulator: endpoint configuration routes, signed deliveries on
// the spec's retry schedule (virtual clock), delivery records. Logic lives in the sibling files.
export { createWebhookService, defaultUserAgent, DEFAULT_CONCURRENCY_PER_ORIGIN, DEFAULT_TIMEOUT_MS } from './service.ts';
export type { WebhookConfiguration, WebhookService, WebhookServiceOptions } from './service.ts';
export type { AttemptReport } from './dispatcher.ts';
export {
  chaosPlanner,
  parseChaosSettings,
  type ChaosEffect,
  type ChaosPlan,
  type ChaosSettings,
  type PlanChaos,
  type WrapSend,
} from './chaos.ts';
export type {
  Attempt,
  DeliveryStatus,
  ListPage,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEvent,
  WebhookEventType,
  WebhookPayload,
} from './types.ts';
export { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from './types.ts';
export { formatSignatureHeader, generateSecret, signPayload, SECRET_PREFIX } from './sign.ts';
export { buildPayload, serializePayload } from './payload.ts';
export { DEFAULT_RETRY_DELAYS_MS, nextAttemptDueAt, retryScheduler, type RetryScheduler } from './retry-schedule.ts';
export {
  ATTEMPT_TIME_HEADER,
  DELIVERY_ID_HEADER,
  buildAttemptRequest,
  deliveryHeaders,
  type AttemptInput,
  type AttemptRequest,
  type BuildAttemptRequest,
} from './delivery-headers.ts';
export { DeliveryStore } from './delivery-store.ts';
export { EndpointStore } from './endpoint-store.ts';
export { MAX_URL_LENGTH, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from './validate.ts';
export {
  ListenerRegistry,
  listenerTargets,
  MAX_LISTENERS_PER_KEY,
  type Listener,
  type ListenerTargets,
  type NewListener,
} from './listener-registry.ts';
