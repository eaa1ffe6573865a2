// Shapes of the webhook subsystem. The wire shapes (payload, endpoint, delivery record, list page)
// are the contract's types; the spec leaves the configuration and delivery records unshown, so
// those follow docs/decisions.md ("Webhook endpoint") and are `assumed` in the contract.
import type {
  ListEnvelope,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventType,
  WebhookPayload,
} from '@stablepay/contract/types';

export type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType, WebhookPayload };
export type Attempt = WebhookDeliveryAttempt;
export type DeliveryStatus = WebhookDeliveryStatus;
export type ListPage<T> = ListEnvelope<T>;

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
] as const satisfies readonly WebhookEventType[];

/** What the simulator core hands to `emit`: the facts the minimal payload is built from. */
export interface WebhookEvent {
  type: WebhookEventType;
  paymentId?: string;
  payoutId?: string;
  externalId?: string | null;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const satisfies readonly DeliveryStatus[];
