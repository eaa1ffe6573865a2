// A merchant whose webhook endpoint points at a fresh receiver path, with the secret in hand.
// With a control API that is a new merchant (deliveries of other checks never mix in); without it,
// the main merchant's endpoint is pointed at the receiver and restored afterwards (its secret is
// rotated to learn it — say so when running against shared staging).
import type { PaymentEventPayload, WebhookEndpoint, WebhookPayload } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import type { Received } from '../../received.ts';
import type { Delivery, EndpointBehaviour, ReceiverEndpoint } from '../../webhooks/receiver.ts';
import { verifySignature } from '../../webhooks/signature.ts';
import { attemptKey } from '../../webhooks/attempts.ts';
import { deliveryEvidence } from '../../webhooks/evidence.ts';
import { SecretRegistry } from '../../http/redact.ts';

export interface WebhookSubject {
  api: HttpClient;
  endpoint: ReceiverEndpoint;
  secret: string;
  /** Attempts already verified: a later copy of one (same body and t) is a legal duplicate, judged once. */
  verified?: Set<string>;
}

let secretCount = 0;

function secretOf(ctx: CheckContext, body: unknown): string {
  const secret = (body as { secret?: unknown } | undefined)?.secret;
  ctx.require(
    typeof secret === 'string' && secret.length > 0,
    'WH-CONFIG-ENDPOINTS',
    'Webhook configuration did not return the secret',
    'POST /v1/webhooks (or regenerate-secret) response has no `secret`',
  );
  ctx.services.secrets.add(secret, `WEBHOOK_SECRET_${++secretCount}`);
  return secret;
}

export async function webhookSubject(ctx: CheckContext, behaviour: EndpointBehaviour = { status: 200 }): Promise<WebhookSubject> {
  const endpoint = ctx.receiver.endpoint(behaviour, ctx.check.id.replace(/\./g, '-'));
  if (ctx.services.control) {
    const { api } = await ctx.newMerchant('webhooks');
    const created = await api.post('/v1/webhooks', { url: endpoint.url });
    ctx.require(
      created.status === 201 || created.status === 200,
      'WH-CONFIG-ENDPOINTS',
      'Webhook endpoint could not be configured',
      () => `POST /v1/webhooks answered ${created.status}: ${created.text.slice(0, 200)}`,
      created.exchange,
    );
    return { api, endpoint, secret: secretOf(ctx, created.json) };
  }
  const api = ctx.api;
  const existing = await api.get('/v1/webhooks');
  if (existing.status === 200) {
    const original = existing.json as Received<WebhookEndpoint>;
    const updated = await api.put('/v1/webhooks', { url: endpoint.url, enabled: true });
    ctx.require(
      updated.status === 200,
      'WH-CONFIG-ENDPOINTS',
      'Webhook endpoint could not be updated',
      () => `PUT /v1/webhooks answered ${updated.status}`,
      updated.exchange,
    );
    ctx.onCleanup(async () => void (await api.put('/v1/webhooks', { url: original.url, enabled: original.enabled ?? true })));
    const rotated = await api.request({ method: 'POST', path: '/v1/webhooks/regenerate-secret' });
    ctx.require(
      rotated.status === 200,
      'WH-CONFIG-ENDPOINTS',
      'Webhook secret could not be rotated',
      () => `answered ${rotated.status}`,
      rotated.exchange,
    );
    return { api, endpoint, secret: secretOf(ctx, rotated.json) };
  }
  const created = await api.post('/v1/webhooks', { url: endpoint.url });
  ctx.require(
    created.status === 201 || created.status === 200,
    'WH-CONFIG-ENDPOINTS',
    'Webhook endpoint could not be configured',
    () => `POST /v1/webhooks answered ${created.status}: ${created.text.slice(0, 200)}`,
    created.exchange,
  );
  ctx.onCleanup(async () => void (await api.put('/v1/webhooks', { enabled: false })));
  return { api, endpoint, secret: secretOf(ctx, created.json) };
}

/** Deliveries whose JSON body is the given event (optionally for one payment). */
export function eventsOf(deliveries: Delivery[], event: string, paymentId?: string): Delivery[] {
  return deliveries.filter((d) => {
    const body = d.json as Received<PaymentEventPayload> | undefined;
    return body?.event === event && (paymentId === undefined || body.data?.paymentId === paymentId);
  });
}

export function describeDeliveries(deliveries: Delivery[]): string {
  if (deliveries.length === 0) return 'no deliveries';
  return deliveries
    .map((d) => `${(d.json as Received<WebhookPayload> | undefined)?.event ?? '?'}@${d.headers['x-service-timestamp'] ?? '?'}`)
    .join(', ');
}

/** Verifies signature and timestamp of each delivery as the merchant's receiver would (ServerClock.signatureNow). */
export function verifyDeliveries(
  ctx: CheckContext,
  subject: WebhookSubject,
  deliveries: Delivery[],
  requirementFor: (reason: string) => string,
): void {
  subject.verified ??= new Set();
  for (const delivery of deliveries) {
    // A copy arriving after the clock moved would look stale; the attempt itself was judged on arrival.
    const key = attemptKey(delivery);
    if (subject.verified.has(key)) continue;
    subject.verified.add(key);
    ctx.addCases();
    const verdict = verifySignature({
      headers: delivery.headers,
      rawBody: delivery.rawBody,
      secret: subject.secret,
      nowSeconds: Math.floor((ctx.clock.signatureNow?.(delivery.receivedAt) ?? delivery.receivedAt) / 1000),
    });
    if (!verdict.ok) {
      ctx.failDelivery(
        requirementFor(verdict.reason),
        `Webhook delivery fails signature verification (${verdict.reason})`,
        `${(delivery.json as Received<WebhookPayload> | undefined)?.event ?? 'delivery'}: ${verdict.detail}${signatureDetail(delivery, subject.secret)}`,
        delivery,
        subject.secret,
      );
    }
  }
}

/**
 * What the received v1 was computed over, when it matches a usual mistake. The message stays the same for every
 * delivery a bug touches (so identical findings group); the expected and received values travel in the evidence.
 */
function signatureDetail(delivery: Delivery, secret: string): string {
  const { signature } = deliveryEvidence(delivery, { secret, secrets: new SecretRegistry(), reportDir: '.' });
  return signature.diagnosis ? `\n${signature.diagnosis} (expected and received v1 in the delivery evidence)` : '';
}
