// Shapes of the webhook subsystem. The spec leaves the configuration and delivery records
// unshown; these follow docs/decisions.md ("Webhook endpoint") and are `assumed` in the contract.

export const WEBHOOK_EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payout.created',
  'payout.processing',
  'payout.completed',
  'payout.failed',
  'payout.expired',
  'payout.cancelled',
  'test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What the simulator core hands to `emit`: the facts the minimal payload is built from. */
export interface WebhookEvent {
  type: WebhookEventType;
  paymentId?: string;
  payoutId?: string;
  externalId?: string | null;
}

/** The JSON body sent to the merchant (spec §6 "Payload"); `test` carries no `data`. */
export type WebhookPayload =
  | { event: WebhookEventType; timestamp: string; data: { paymentId: string; externalId: string | null } }
  | { event: WebhookEventType; timestamp: string; data: { payoutId: string; externalId: string | null } }
  | { event: 'test'; timestamp: string };

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface Attempt {
  /** 1..7 with the default schedule. */
  number: number;
  attemptedAt: string;
  /** HTTP status of the response; null when none arrived (refused, reset, timeout before headers). */
  statusCode: number | null;
  /** Real (wall) milliseconds the exchange took: virtual time does not pass during an HTTP call. */
  durationMs: number;
  /** null on success; otherwise e.g. "HTTP 500", "timeout after 10000 ms", "connect ECONNREFUSED ...". */
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  event: WebhookEventType;
  paymentId: string | null;
  payoutId: string | null;
  /** The endpoint URL at the time of the event; every attempt of this delivery goes there. */
  url: string;
  status: DeliveryStatus;
  attempts: Attempt[];
  /** When the next (or in-flight) attempt is due; null once succeeded or failed. */
  nextAttemptAt: string | null;
  /** The exact JSON sent, parsed back from the raw body bytes. */
  payload: WebhookPayload;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  enabled: boolean;
  secretLast4: string;
  createdAt: string;
  updatedAt: string;
}

/** Returned only by create and regenerate-secret: the secret is shown once. */
export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };

export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}
