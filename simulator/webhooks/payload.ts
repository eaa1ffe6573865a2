// Builds the minimal event body of spec §6. The body is serialised once per delivery so every
// attempt carries byte-identical content (the signature covers the raw bytes).
import { WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookPayload } from './types.ts';

const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/**
 * Throws TypeError when the core passes an event that cannot produce a well-formed payload:
 * sending `data.paymentId: undefined` to merchants would be worse than failing loudly in tests.
 */
export function buildPayload(event: WebhookEvent, timestampIso: string): WebhookPayload {
  if (!KNOWN_TYPES.has(event.type)) throw new TypeError(`unknown webhook event type: ${String(event.type)}`);
  if (event.type === 'test') return { event: 'test', timestamp: timestampIso };
  const externalId = event.externalId ?? null;
  if (event.type.startsWith('payout.')) {
    if (!event.payoutId) throw new TypeError(`${event.type} needs a payoutId`);
    return { event: event.type, timestamp: timestampIso, data: { payoutId: event.payoutId, externalId } };
  }
  if (!event.paymentId) throw new TypeError(`${event.type} needs a paymentId`);
  return { event: event.type, timestamp: timestampIso, data: { paymentId: event.paymentId, externalId } };
}

export function serializePayload(payload: WebhookPayload): string {
  return JSON.stringify(payload);
}
