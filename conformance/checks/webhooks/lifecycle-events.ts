// Every lifecycle transition notifies: processing, completed, failed, expired, cancelled, each for
// the right payment with data.paymentId and data.externalId, payload valid for its event type, and
// signed. API creates emit no payment.created; a dashboard create (control API) does.
import type { Payment, PaymentEventPayload } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { failAsCustomer, failableSellers, payAsCustomer, requireCustomerPath } from '../../support/customer-path.ts';
import { cancelPayment, createPayment, uniqueExternalId } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { SUBJECT_PREMISES, describeDeliveries, eventsOf, verifyDeliveries, webhookSubject } from './subject.ts';
import { PAYMENT_EVENT_REQUIREMENT as EVENT_REQUIREMENT } from '../../webhooks/event-requirements.ts';

function checkPayload(ctx: CheckContext, delivery: Delivery, event: string, paymentId: string, externalId: string | null): void {
  const body = delivery.json as Received<PaymentEventPayload>;
  // Found by data.paymentId: the payload names its payment; the contract's payload schema is judged below.
  ctx.judged('WH-PAYLOAD-PAYMENT-ID', 'WH-PAYLOAD-MINIMAL', 'WH-PAYLOAD-NO-EXTRA-FIELDS');
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
  for (const v of ctx.contract.validateWebhook(event, body, headers)) {
    // What the contract closes beyond the spec's table (extra fields) is ours: it warns under its own ID.
    const requirement = v.level === 'assumed' ? 'WH-PAYLOAD-NO-EXTRA-FIELDS' : 'WH-PAYLOAD-MINIMAL';
    ctx.failDelivery(
      requirement,
      `${event} payload does not match the contract`,
      `${v.message}\npayload: ${delivery.rawBody.slice(0, 300)}`,
      delivery,
      undefined,
      { level: v.level },
    );
  }
  ctx.expectDelivery(
    typeof body.timestamp === 'string' && !Number.isNaN(Date.parse(body.timestamp)),
    'WH-PAYLOAD-TIMESTAMP',
    `${event} timestamp is not ISO 8601`,
    `timestamp ${JSON.stringify(body.timestamp)}`,
    delivery,
  );
  ctx.expectDelivery(
    body.event === event,
    'WH-PAYLOAD-EVENT',
    `${event} payload does not name its event`,
    `event ${JSON.stringify(body.event)}`,
    delivery,
  );
  ctx.expectDelivery(
    body.data?.externalId === externalId,
    'WH-PAYLOAD-EXTERNAL-ID',
    `${event} data.externalId is not the payment's`,
    `expected ${externalId}, got ${JSON.stringify(body.data?.externalId)}`,
    delivery,
  );
  void paymentId;
}

export const lifecycleEvents = defineCheck({
  id: 'webhooks.lifecycle-events',
  title: 'Each lifecycle transition is notified with a valid, signed payload; API creates emit no payment.created',
  requirements: [
    ...Object.values(EVENT_REQUIREMENT),
    'WH-PAYLOAD-MINIMAL',
    'WH-PAYLOAD-NO-EXTRA-FIELDS',
    'WH-PAYLOAD-EVENT',
    'WH-DEDUP-KEY',
    'WH-BODY-IDENTICAL',
    'WH-PAYLOAD-TIMESTAMP',
    'WH-PAYLOAD-EXTERNAL-ID',
    'WH-PAYLOAD-PAYMENT-ID',
    'PAY-STATE-CREATE-NO-CREATED-EVENT',
    'WH-EVENT-PAYMENT-CREATED',
    'WH-SIGN-HMAC',
    'WH-CONFIG-ENDPOINTS',
  ],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks', 'lifecycle', 'clock'],
  resources: { exclusive: ['clock'], browserSlots: 1 },
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const path = requireCustomerPath(ctx);
    if (!ctx.canMoveClock) ctx.notExercised('no clock the suite can move');
    const subject = await webhookSubject(ctx);
    await ctx.clock.refresh();
    const make = async (tag: string, failable = false) => {
      const externalId = uniqueExternalId(tag);
      const sellers = failable ? failableSellers(ctx) : undefined;
      const created = await createPayment(subject.api, {
        amount: await acceptedAmount(ctx, 'EUR', '77.70'),
        currency: 'EUR',
        externalId,
        ...(sellers ? { sellers } : {}),
        expiresAt: new Date(ctx.clock.now() + 20 * 60_000).toISOString(),
      });
      ctx.requireStatus(created, 201, 'WH-CONFIG-ENDPOINTS', 'Setup: create');
      return { id: created.payment.id, externalId, payment: created.payment };
    };
    const paid = await make('whpaid');
    const failed = await make('whfail', true);
    const cancelled = await make('whcancel');
    const expired = await make('whexp');
    await payAsCustomer(ctx, subject.api, paid.payment, { chainId: 1, token: 'USDC' });
    if (path === 'control') {
      await ctx.control.submit(failed.id, 56, 'USDT');
      await ctx.control.fail(failed.id, { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: 'conformance' });
    } else await failAsCustomer(ctx, subject.api, failed.payment);
    ctx.requireStatus(await cancelPayment(subject.api, cancelled.id), '2xx', 'WH-EVENT-PAYMENT-CANCELLED', 'Setup: cancel');
    const beforeAdvance: [string, { id: string; externalId: string }][] = [
      ['payment.processing', paid],
      ['payment.completed', paid],
      ['payment.processing', failed],
      ['payment.failed', failed],
      ['payment.cancelled', cancelled],
    ];
    // Signatures are checked against the implementation's clock at receipt, so before moving it.
    const early = await subject.endpoint.waitFor(
      (d) => beforeAdvance.every(([event, p]) => eventsOf(d, event, p.id).length > 0),
      ctx.options.webhookWaitMs,
    );
    await ctx.clock.refresh();
    verifyDeliveries(ctx, subject, early, () => 'WH-SIGN-HMAC');
    await ctx.advanceClock(21 * 60_000);
    await ctx.clock.refresh();
    const expected: [string, { id: string; externalId: string }][] = [...beforeAdvance, ['payment.expired', expired]];
    const deliveries = await subject.endpoint.waitFor(
      (d) => expected.every(([event, p]) => eventsOf(d, event, p.id).length > 0),
      ctx.options.webhookWaitMs,
    );
    verifyDeliveries(ctx, subject, deliveries.slice(early.length), () => 'WH-SIGN-HMAC');
    for (const [event, p] of expected) {
      const matching = eventsOf(deliveries, event, p.id);
      ctx.addCases();
      if (
        ctx.expect(
          matching.length > 0,
          EVENT_REQUIREMENT[event]!,
          `${event} not delivered`,
          `no ${event} for ${p.id}; received ${describeDeliveries(deliveries)}`,
        )
      ) {
        checkPayload(ctx, matching[0]!, event, p.id, p.externalId);
      }
    }
    // (paymentId, event) identifies one occurrence, so a receiver may deduplicate on it (documented); that every copy
    // of an occurrence is the same body is ours (WH-BODY-IDENTICAL: the spec does not say what a copy's timestamp is).
    const byPair = new Map<string, Set<string>>();
    const dataByPair = new Map<string, Set<string>>();
    for (const d of deliveries) {
      const body = d.json as Received<PaymentEventPayload> | undefined;
      const key = `${body?.data?.paymentId}/${body?.event}`;
      byPair.set(key, (byPair.get(key) ?? new Set()).add(d.rawBody));
      // Key order is no difference (JSON objects are unordered); the data object is flat.
      const data = body?.data ?? null;
      dataByPair.set(key, (dataByPair.get(key) ?? new Set()).add(JSON.stringify(data, data ? Object.keys(data).sort() : undefined)));
    }
    ctx.addCases();
    // One occurrence per pair: whatever else a copy carries, the data it announces is that occurrence's.
    const twoOccurrences = [...dataByPair].filter(([, data]) => data.size > 1).map(([key]) => key);
    ctx.expect(
      twoOccurrences.length === 0,
      'WH-DEDUP-KEY',
      '(paymentId, event) does not identify one occurrence',
      `different data under one (paymentId, event): ${twoOccurrences.join(', ')}`,
    );
    const ambiguous = [...byPair].filter(([, bodies]) => bodies.size > 1).map(([key]) => key);
    ctx.expect(
      ambiguous.length === 0,
      'WH-BODY-IDENTICAL',
      'Copies of one (paymentId, event) carry different bodies',
      `different bodies under one (paymentId, event): ${ambiguous.join(', ')}`,
    );
    const created = eventsOf(deliveries, 'payment.created');
    ctx.judged('PAY-STATE-CREATE-NO-CREATED-EVENT');
    if (created.length > 0)
      ctx.failDelivery(
        'PAY-STATE-CREATE-NO-CREATED-EVENT',
        'payment.created emitted for an API-key create',
        `${created.length} payment.created deliveries for payments created with the API key`,
        created[0]!,
        subject.secret,
      );

    // The dashboard create (control API) is the one that does emit payment.created.
    if (path !== 'control') return;
    const dashboard = await ctx.control.http.post(
      '/payments',
      { amount: '15.00', currency: 'USD', externalId: uniqueExternalId('dash') },
      subject.api.options.credential,
    );
    if (dashboard.status === 201) {
      const id = (dashboard.json as Payment).id;
      const after = await subject.endpoint.waitFor((d) => eventsOf(d, 'payment.created', id).length > 0, ctx.options.webhookWaitMs);
      ctx.expect(
        eventsOf(after, 'payment.created', id).length > 0,
        'WH-EVENT-PAYMENT-CREATED',
        'payment.created not emitted for a dashboard create',
        `received ${describeDeliveries(after)}`,
      );
    }
  },
});
