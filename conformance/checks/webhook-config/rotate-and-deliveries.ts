// After POST /v1/webhooks/regenerate-secret, deliveries verify with the new secret only (the HMAC
// key being the whole secret, whsec_ included when it has one). GET /v1/webhooks/deliveries shows
// what was delivered (documented); that it records each delivery with the exact payload sent and its
// attempts, walks with the cursor and filters by event are our shapes (the payloads are not shown).
import { isDeepStrictEqual } from 'node:util';
import type { WebhookDelivery, WebhookEndpointWithSecret, WebhookPayload } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { parseSignatureHeader, sign } from '../../webhooks/signature.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { distinctAttempts } from '../../webhooks/attempts.ts';
import type { HttpResponse } from '../../http/client.ts';

/**
 * The service records a delivery's outcome once the receiver's answer is back, which can be after
 * the receiver saw the request. Re-read the list while a record is still pending, bounded by the
 * delivery time-out on the service's clock (10 s, WH-DELIVERY-TIMEOUT-10S): by then an attempt
 * answered 2xx must be recorded.
 */
const RECORDING_BOUND_MS = 10_000;

async function settledDeliveries(ctx: CheckContext, read: () => Promise<HttpResponse>): Promise<HttpResponse> {
  const start = await ctx.clock.refresh();
  for (;;) {
    const list = await read();
    const data = (list.json as { data?: { status?: unknown }[] } | undefined)?.data;
    if (list.status !== 200 || !Array.isArray(data) || !data.some((d) => d.status === 'pending')) return list;
    if ((await ctx.clock.refresh()) - start > RECORDING_BOUND_MS) return list;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
import { SUBJECT_PREMISES, webhookSubject } from '../webhooks/subject.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { readList } from '../../support/lists.ts';
import { secretFrom, sendTestEvent } from '../../support/webhook-config.ts';

const DELIVERY_FIELDS = [
  'id',
  'event',
  'paymentId',
  'payoutId',
  'url',
  'status',
  'attempts',
  'nextAttemptAt',
  'payload',
  'createdAt',
  'updatedAt',
];
const ATTEMPT_FIELDS = ['number', 'attemptedAt', 'statusCode', 'durationMs', 'error'];

type DeliveryRecord = Received<WebhookDelivery>;

function signedWith(delivery: Delivery, secret: string): boolean {
  const parsed = parseSignatureHeader(String(delivery.headers['x-service-signature'] ?? ''));
  return parsed !== null && sign(secret, parsed.t, delivery.rawBody) === parsed.v1;
}

export const rotateAndDeliveries = defineCheck({
  id: 'webhook-config.rotate-and-deliveries',
  title: 'A rotated secret signs every later delivery (the old one none); the deliveries list records what was sent',
  requirements: [
    'WH-SECRET-ROTATE',
    'WH-CONFIG-DELIVERIES-ENDPOINT',
    'WH-CONFIG-TEST-ENDPOINT',
    'WH-EVENT-PAYMENT-CANCELLED',
    'AUTH-WEBHOOK-BY-SIGNATURE',
    'WH-CONFIG-REGENERATE',
    'WH-SIGN-KEY-WHOLE-SECRET',
    'WH-CONFIG-TEST-202',
    'WH-DELIVERY-RECORD-SHAPE',
    'WH-ATTEMPT-RECORD-SHAPE',
    'WH-DELIVERIES-LIST-FILTERS',
    'WH-DELIVERY-HEADERS',
    // Its endpoint is configured through webhookSubject, which reports a refused configuration on this requirement.
    'WH-CONFIG-ENDPOINTS',
  ],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks'],
  resources: { exclusive: ['main-webhook-endpoint'] },
  premises: [...SUBJECT_PREMISES, 'webhooks.test-with-api-key', 'payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    // With the control API a merchant of its own; else the main merchant, whose list also holds the run's other
    // deliveries: then only the records sent to this check's receiver URL are judged.
    const own = ctx.services.control !== null;
    const subject = await webhookSubject(ctx);
    const { api, endpoint } = subject;
    const oldSecret = subject.secret;
    const rotated = await api.request({ method: 'POST', path: '/v1/webhooks/regenerate-secret' });
    ctx.require(
      rotated.status >= 200 && rotated.status < 300,
      'WH-SECRET-ROTATE',
      'POST /v1/webhooks/regenerate-secret does not rotate',
      () => `answered ${rotated.status}: ${rotated.text.slice(0, 300)}`,
      rotated.exchange,
    );
    ctx.expect(
      rotated.status === 200,
      'WH-CONFIG-REGENERATE',
      'Rotation does not answer 200',
      `answered ${rotated.status}`,
      rotated.exchange,
    );
    // The secret's field and format are not shown: it is found in the response by what it is (support/webhook-config.ts).
    const newSecret = (await secretFrom(ctx, rotated, endpoint.url)) ?? '';
    ctx.services.secrets.add(newSecret, 'ROTATED_WEBHOOK_SECRET');
    ctx.require(
      newSecret !== '' && newSecret !== oldSecret,
      'WH-SECRET-ROTATE',
      'Regenerating does not give a new secret',
      () => (newSecret === '' ? 'the response shows no secret (premise webhooks.secret-field)' : 'the response shows the old secret again'),
      rotated.exchange,
    );
    const last4 = (rotated.json as Received<WebhookEndpointWithSecret>).secretLast4;
    ctx.expect(
      last4 === newSecret.slice(-4),
      'WH-CONFIG-REGENERATE',
      'secretLast4 does not follow the new secret',
      `secretLast4 ${JSON.stringify(last4)}`,
      rotated.exchange,
    );

    const test = await sendTestEvent(ctx, api);
    const testSent = test.status >= 200 && test.status < 300;
    ctx.addCases();
    ctx.expect(
      test.status === 202 && (test.json as DeliveryRecord | undefined)?.event === 'test',
      'WH-CONFIG-TEST-202',
      'The test event is not answered 202 with its delivery record',
      `answered ${test.status}: ${test.text.slice(0, 200)}`,
      test.exchange,
    );
    const created = await createPayment(api, { amount: await acceptedAmount(ctx, 'USD', '21.00'), currency: 'USD' });
    ctx.requireStatus(created, 201, 'WH-CONFIG-DELIVERIES-ENDPOINT', 'Setup: create');
    ctx.requireStatus(await api.delete(`/v1/payments/${created.payment.id}`), '2xx', 'WH-CONFIG-DELIVERIES-ENDPOINT', 'Setup: cancel');
    // Copies of one attempt (same body and t) are one delivery. An implementation that keeps the test event for
    // dashboard sessions (legal) sends the cancellation only.
    const wanted = testSent ? 2 : 1;
    const received = distinctAttempts(await endpoint.waitFor((d) => distinctAttempts(d).length >= wanted, ctx.options.webhookWaitMs));
    const cancelled = received.filter((d) => (d.json as Received<WebhookPayload> | undefined)?.event === 'payment.cancelled');
    ctx.require(
      cancelled.length > 0,
      'WH-EVENT-PAYMENT-CANCELLED',
      'payment.cancelled did not arrive after the rotation',
      `${received.length} deliveries: ${received.map((d) => (d.json as Received<WebhookPayload> | undefined)?.event).join(', ')}`,
    );
    if (testSent)
      ctx.expect(
        received.some((d) => (d.json as Received<WebhookPayload> | undefined)?.event === 'test'),
        'WH-CONFIG-TEST-ENDPOINT',
        'The test event did not arrive',
        `POST /v1/webhooks/test answered ${test.status}; ${received.length} deliveries arrived`,
      );
    for (const delivery of received) {
      ctx.addCases();
      const event = (delivery.json as Received<WebhookPayload> | undefined)?.event;
      ctx.expectDelivery(
        signedWith(delivery, newSecret),
        'WH-SECRET-ROTATE',
        `${event} after rotation is not signed with the new secret`,
        'HMAC with the regenerated secret does not match v1',
        delivery,
        newSecret,
      );
      ctx.expectDelivery(
        !signedWith(delivery, oldSecret),
        'WH-SECRET-ROTATE',
        `${event} after rotation still verifies with the old secret`,
        'the old secret must stop verifying',
        delivery,
        newSecret,
      );
      // Only a prefixed secret can be misused by dropping its prefix.
      if (newSecret.startsWith('whsec_'))
        ctx.expectDelivery(
          !signedWith(delivery, newSecret.replace(/^whsec_/, '')),
          'WH-SIGN-KEY-WHOLE-SECRET',
          `${event} is signed with the secret minus its whsec_ prefix`,
          'the HMAC key must be the whole secret string',
          delivery,
          newSecret,
        );
      ctx.expectDelivery(
        delivery.headers.authorization === undefined,
        'AUTH-WEBHOOK-BY-SIGNATURE',
        `${event} carries an Authorization header`,
        'deliveries are authenticated by signature, not by a key',
        delivery,
        newSecret,
      );
      ctx.expectDelivery(
        /^application\/json\b/i.test(String(delivery.headers['content-type'] ?? '')) &&
          /^stablepay-simulator\/\S+$/.test(String(delivery.headers['user-agent'] ?? '')),
        'WH-DELIVERY-HEADERS',
        `${event} lacks Content-Type application/json or the User-Agent`,
        `Content-Type ${delivery.headers['content-type']}, User-Agent ${delivery.headers['user-agent']}`,
        delivery,
        newSecret,
      );
    }

    // Inspectable (documented): the list answers and names what was delivered. Its envelope, records, paging and
    // filters are ours (the payloads are not shown), so what is read from them warns.
    const list = await settledDeliveries(ctx, () => api.get('/v1/webhooks/deliveries'));
    ctx.requireStatus(list, '2xx', 'WH-CONFIG-DELIVERIES-ENDPOINT', 'GET /v1/webhooks/deliveries does not answer');
    ctx.expect(
      list.text.includes(created.payment.id),
      'WH-CONFIG-DELIVERIES-ENDPOINT',
      'The deliveries list does not show the delivery just made',
      () => `no mention of payment ${created.payment.id}: ${list.text.slice(0, 300)}`,
      list.exchange,
    );
    const page = await readList<DeliveryRecord>(ctx, list);
    ctx.require(
      page.items !== null && page.envelope,
      'WH-DELIVERIES-LIST-FILTERS',
      'The deliveries list is not a list envelope',
      () => list.text.slice(0, 300),
      list.exchange,
    );
    const records = own ? page.items : page.items.filter((record) => record.url === endpoint.url);
    ctx.expect(
      records.length === received.length,
      'WH-DELIVERY-RECORD-SHAPE',
      'The deliveries list does not hold one record per delivery',
      `${records.length} records for ${received.length} deliveries`,
      list.exchange,
    );
    for (const record of records) {
      ctx.addCases();
      const keys = Object.keys(record).sort();
      ctx.expect(
        keys.join(',') === [...DELIVERY_FIELDS].sort().join(','),
        'WH-DELIVERY-RECORD-SHAPE',
        'A delivery record does not have the documented fields',
        `fields ${keys.join(', ')}`,
        list.exchange,
      );
      // The same JSON, whatever the order of its keys (JSON objects are unordered).
      const sent = received.find((d) => isDeepStrictEqual(d.json, record.payload));
      ctx.expect(
        sent !== undefined,
        'WH-DELIVERY-RECORD-SHAPE',
        'A delivery record payload is not the JSON that was sent',
        `payload ${JSON.stringify(record.payload).slice(0, 200)}`,
        list.exchange,
      );
      ctx.expect(
        record.status === 'succeeded' && record.nextAttemptAt === null,
        'WH-DELIVERY-RECORD-SHAPE',
        'A delivery answered 2xx is not succeeded',
        `status ${JSON.stringify(record.status)}, nextAttemptAt ${JSON.stringify(record.nextAttemptAt)}`,
        list.exchange,
      );
      const attempts = Array.isArray(record.attempts) ? record.attempts : [];
      const attempt = attempts[0] ?? {};
      ctx.expect(
        attempts.length === 1 &&
          Object.keys(attempt).sort().join(',') === [...ATTEMPT_FIELDS].sort().join(',') &&
          attempt.number === 1 &&
          attempt.statusCode === 200 &&
          attempt.error === null &&
          Number.isInteger(attempt.durationMs),
        'WH-ATTEMPT-RECORD-SHAPE',
        'The attempt of a delivery answered 200 is not {number 1, attemptedAt, statusCode 200, durationMs, error null}',
        `attempts ${JSON.stringify(record.attempts)}`,
        list.exchange,
      );
    }
    const first = await readList<DeliveryRecord>(ctx, await api.get('/v1/webhooks/deliveries', { limit: 1 }));
    ctx.addCases();
    const firstItem = first.items?.[0];
    if (
      ctx.expect(
        first.status === 200 && first.items?.length === 1 && first.hasMore === true && first.nextCursor === firstItem?.id,
        'WH-DELIVERIES-LIST-FILTERS',
        'limit=1 over two deliveries is not a one-item page with hasMore and nextCursor',
        () => first.exchange.responseBody.slice(0, 300),
        first.exchange,
      )
    ) {
      const second = await readList<DeliveryRecord>(ctx, await api.get('/v1/webhooks/deliveries', { limit: 1, cursor: firstItem!.id }));
      ctx.expect(
        second.status === 200 && second.items?.length === 1 && second.items[0]!.id !== firstItem!.id,
        'WH-DELIVERIES-LIST-FILTERS',
        'The cursor does not advance the deliveries list',
        () => second.exchange.responseBody.slice(0, 300),
        second.exchange,
      );
    }
    if (testSent) {
      const onlyTest = await readList<DeliveryRecord>(ctx, await api.get('/v1/webhooks/deliveries', { event: 'test' }));
      ctx.addCases();
      const testId = (test.json as DeliveryRecord | undefined)?.id;
      const testData = onlyTest.status === 200 ? (onlyTest.items ?? []) : [];
      const onlyTests = testData.length > 0 && testData.every((d) => d.event === 'test');
      ctx.expect(
        own ? onlyTests && testData.length === 1 : onlyTests && testData.some((d) => d.id === testId),
        'WH-DELIVERIES-LIST-FILTERS',
        'The event filter does not select the test delivery only',
        () => onlyTest.exchange.responseBody.slice(0, 300),
        onlyTest.exchange,
      );
    }
    const byPayment = await readList<DeliveryRecord>(ctx, await api.get('/v1/webhooks/deliveries', { paymentId: created.payment.id }));
    ctx.expect(
      byPayment.status === 200 && byPayment.items?.length === 1 && byPayment.items[0]!.paymentId === created.payment.id,
      'WH-DELIVERIES-LIST-FILTERS',
      "The paymentId filter does not select that payment's delivery",
      () => byPayment.exchange.responseBody.slice(0, 300),
      byPayment.exchange,
    );
  },
});
