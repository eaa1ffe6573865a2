// A merchant whose webhook endpoint points at the suite's receiver, with the secret in hand, and the deliveries of
// this check's payments. With a control API that is a new merchant with a receiver path of its own (deliveries of
// other checks never mix in). Without one it is the main merchant's one endpoint: pointed once for the whole run at
// a shared path that routes each delivery to the check whose payment it is about (webhooks/run-endpoint.ts), or, for
// a check holding the endpoint alone (it rotates the secret or sends the test event), pointed at a path of its own
// and restored afterwards (the secret is rotated to learn it — say so when running against shared staging). The payloads are not shown: the
// bodies and the secret's field are the run's premises (support/webhook-config.ts), which a check using
// this declares (SUBJECT_PREMISES).
import type { PaymentEventPayload, WebhookPayload } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient, HttpResponse } from '../../http/client.ts';
import { leaves } from '../../premises/discover/fields.ts';
import { configureEndpoint, secretFrom } from '../../support/webhook-config.ts';
import type { Received } from '../../received.ts';
import type { Delivery, EndpointBehaviour, ReceiverEndpoint } from '../../webhooks/receiver.ts';
import { verifySignature } from '../../webhooks/signature.ts';
import { attemptKey } from '../../webhooks/attempts.ts';
import { deliveryEvidence } from '../../webhooks/evidence.ts';
import { SecretRegistry } from '../../http/redact.ts';
import { holdsAlone, withoutClaims } from '../../http/request-scope.ts';
import { RequirementError } from '../../errors.ts';
import type { RunEndpoint } from '../../webhooks/run-endpoint.ts';

export interface WebhookSubject {
  api: HttpClient;
  endpoint: ReceiverEndpoint;
  secret: string;
  /** Attempts already verified: a later copy of one (same body and t) is a legal duplicate, judged once. */
  verified?: Set<string>;
}

let secretCount = 0;

/** The premises a check consults through webhookSubject (it declares them). */
export const SUBJECT_PREMISES = ['webhooks.create-body', 'webhooks.update-body', 'webhooks.secret-field'] as const;

async function secretOf(ctx: CheckContext, response: HttpResponse, url: string): Promise<string> {
  const secret = await secretFrom(ctx, response, url);
  ctx.require(
    secret !== undefined,
    'WH-CONFIG-ENDPOINTS',
    'Webhook configuration did not show the secret',
    () =>
      `${response.exchange.method} ${new URL(response.exchange.url).pathname} answered ${response.status} with no field the run could take for the secret (premise webhooks.secret-field): ${response.text.slice(0, 200)}`,
    response.exchange,
  );
  ctx.services.secrets.add(secret, `WEBHOOK_SECRET_${++secretCount}`);
  return secret;
}

/** The endpoint URL and enabled flag a configuration record shows, found by kind (the record's shape is not shown). */
function currentSettings(record: unknown): { url?: string; enabled?: boolean } {
  const urls = leaves(record).filter(([, value]) => typeof value === 'string' && /^https?:\/\//.test(value));
  const flags = leaves(record).filter(([, value]) => typeof value === 'boolean');
  return { ...(urls.length === 1 ? { url: String(urls[0]![1]) } : {}), ...(flags.length === 1 ? { enabled: Boolean(flags[0]![1]) } : {}) };
}

export async function webhookSubject(ctx: CheckContext, behaviour: EndpointBehaviour = { status: 200 }): Promise<WebhookSubject> {
  if (ctx.services.control) {
    const endpoint = ctx.receiver.endpoint(behaviour, ctx.check.id.replace(/\./g, '-'));
    const url = endpoint.url;
    const { api } = await ctx.newMerchant('webhooks');
    const created = await configureEndpoint(ctx, api, 'create', { url });
    ctx.require(
      created.ok,
      'WH-CONFIG-ENDPOINTS',
      'Webhook endpoint could not be configured',
      () => `POST /v1/webhooks ${JSON.stringify(created.sent)} answered ${created.response.status}: ${created.response.text.slice(0, 200)}`,
      created.response.exchange,
    );
    return { api, endpoint, secret: await secretOf(ctx, created.response, url) };
  }
  const runEndpoint = ctx.services.runEndpoint;
  if (runEndpoint && !holdsMainEndpoint()) return runSubject(ctx, runEndpoint, behaviour);
  // Alone with the main merchant's endpoint: pointed at a path of this check's own, and put back as it was after.
  const endpoint = ctx.receiver.endpoint(behaviour, ctx.check.id.replace(/\./g, '-'));
  const { secret, restore } = await pointMainEndpoint(ctx, endpoint.url);
  ctx.onCleanup(async () => {
    await restore();
    // The run's endpoint is back, but signs with the secret this check rotated to: learn the current one.
    if (!runEndpoint?.pointed) return;
    const rotated = await ctx.api.request({ method: 'POST', path: '/v1/webhooks/regenerate-secret' });
    const current = rotated.status >= 200 && rotated.status < 300 ? await secretFrom(ctx, rotated, runEndpoint.url) : undefined;
    if (current) {
      ctx.services.secrets.add(current, `WEBHOOK_SECRET_${++secretCount}`);
      runEndpoint.adoptSecret(current);
    }
  });
  return { api: ctx.api, endpoint, secret };
}

/** True when the running check holds the main merchant's endpoint alone (outside the runner: as if it did). */
function holdsMainEndpoint(): boolean {
  return holdsAlone('main-webhook-endpoint');
}

/**
 * The run's shared endpoint (webhooks/run-endpoint.ts): pointed once, by whichever check comes first, on the run's
 * behalf (no check holds the endpoint alone for it, and none that could change it runs beside another); every check
 * then judges the same outcome and consults the same premises, whichever pointed it.
 */
async function runSubject(ctx: CheckContext, runEndpoint: RunEndpoint, behaviour: EndpointBehaviour): Promise<WebhookSubject> {
  const endpoint = runEndpoint.listen(ctx.check.id, behaviour);
  ctx.onCleanup(async () => runEndpoint.release(ctx.check.id));
  await runEndpoint.pointOnce((url) => withoutClaims(() => pointMainEndpoint(ctx, url, runEndpoint.premisesUsed)));
  const setup = await runEndpoint.secret();
  // Exactly what the pointing consulted: a finding here rests on the same premises whichever check pointed it.
  for (const premise of runEndpoint.premisesUsed) await ctx.premiseState(premise as (typeof SUBJECT_PREMISES)[number]);
  if (!setup.ok && setup.refusal instanceof RequirementError) throw setup.refusal;
  ctx.require(setup.ok, 'WH-CONFIG-ENDPOINTS', 'Webhook endpoint could not be configured', () =>
    setup.ok ? '' : `pointing the main merchant's endpoint at the receiver failed: ${setup.refusal.message}`,
  );
  return { api: ctx.api, endpoint, secret: setup.secret };
}

/**
 * Points the main merchant's one endpoint at `url` and rotates its secret to learn it (say so when running against
 * shared staging); `restore` puts the URL and enabled flag back as they were (or disables an endpoint it created).
 */
async function pointMainEndpoint(
  ctx: CheckContext,
  url: string,
  premisesUsed: string[] = [],
): Promise<{ secret: string; restore: () => Promise<void> }> {
  const api = ctx.api;
  const existing = await api.get('/v1/webhooks');
  if (existing.status === 200) {
    premisesUsed.push('webhooks.update-body');
    const original = currentSettings(existing.json);
    const updated = await configureEndpoint(ctx, api, 'update', { url, enabled: true });
    ctx.require(
      updated.ok,
      'WH-CONFIG-ENDPOINTS',
      'Webhook endpoint could not be updated',
      () => `PUT /v1/webhooks ${JSON.stringify(updated.sent)} answered ${updated.response.status}: ${updated.response.text.slice(0, 200)}`,
      updated.response.exchange,
    );
    const restore = async () =>
      void (await configureEndpoint(ctx, api, 'update', { url: original.url, enabled: original.enabled ?? true }));
    const rotated = await api.request({ method: 'POST', path: '/v1/webhooks/regenerate-secret' });
    ctx.require(
      rotated.status >= 200 && rotated.status < 300,
      'WH-CONFIG-ENDPOINTS',
      'Webhook secret could not be rotated',
      () => `answered ${rotated.status}`,
      rotated.exchange,
    );
    premisesUsed.push('webhooks.secret-field');
    return { secret: await secretOf(ctx, rotated, url), restore };
  }
  premisesUsed.push('webhooks.create-body');
  const created = await configureEndpoint(ctx, api, 'create', { url });
  ctx.require(
    created.ok,
    'WH-CONFIG-ENDPOINTS',
    'Webhook endpoint could not be configured',
    () => `POST /v1/webhooks ${JSON.stringify(created.sent)} answered ${created.response.status}: ${created.response.text.slice(0, 200)}`,
    created.response.exchange,
  );
  premisesUsed.push('webhooks.secret-field');
  return {
    secret: await secretOf(ctx, created.response, url),
    restore: async () => void (await configureEndpoint(ctx, api, 'update', { enabled: false })),
  };
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
  // Each verified delivery judges every step of spec §6's verification.
  const steps = [...new Set(['format', 'timestamp-header', 'stale', 'mismatch'].map(requirementFor))].filter((id) =>
    ctx.check.requirements.includes(id),
  );
  if (deliveries.length > 0) ctx.judged(...steps);
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
