// Builds the minimal event body of spec §6. The body is serialised once per delivery so every
// attempt carries byte-identical content (the signature covers the raw bytes).
import type { PayoutEventType } from '@stablepay/contract/types';
import { WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventType, type WebhookPayload } from './types.ts';

const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

const isPayoutEvent = (type: WebhookEventType): type is PayoutEventType => type.startsWith('payout.');

/**
 * Throws TypeError when the core passes an event that cannot produce a well-formed payload:
 * sending `data.paymentId: undefined` to merchants would be worse than failing loudly in tests.
 */
export function buildPayload(event: WebhookEvent, timestampIso: string): WebhookPayload {
  if (!KNOWN_TYPES.has(event.type)) throw new TypeError(`unknown webhook event type: ${String(event.type)}`);
  const type = event.type;
  if (type === 'test') return { event: 'test', timestamp: timestampIso } satisfies WebhookPayload;
  const externalId = event.externalId ?? null;
  if (isPayoutEvent(type)) {
    if (!event.payoutId) throw new TypeError(`${type} needs a payoutId`);
    return { event: type, timestamp: timestampIso, data: { payoutId: event.payoutId, externalId } } satisfies WebhookPayload;
  }
  if (!event.paymentId) throw new TypeError(`${type} needs a paymentId`);
  return { event: type, timestamp: timestampIso, data: { paymentId: event.paymentId, externalId } } satisfies WebhookPayload;
}

export function serializePayload(payload: WebhookPayload): string {
  return JSON.stringify(payload);
}
