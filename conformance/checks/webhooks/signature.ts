// Every delivery is signed as spec §6 says: X-Service-Signature `t=<ts>,v1=<hex>`, t equal to
// X-Service-Timestamp and within 300 s of the implementation's clock, v1 = HMAC-SHA256 over
// `<t>.<raw body>` with the endpoint's secret; delivered as POST with a JSON body.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { SUBJECT_PREMISES, verifyDeliveries, webhookSubject, eventsOf, describeDeliveries } from './subject.ts';

const BY_REASON: Record<string, string> = {
  format: 'WH-HEADER-SIGNATURE',
  'timestamp-header': 'WH-HEADER-TIMESTAMP',
  stale: 'WH-SIGN-TOLERANCE',
  mismatch: 'WH-SIGN-HMAC',
};

export const webhookSignature = defineCheck({
  id: 'webhooks.signature',
  title: 'Deliveries are POSTed JSON, signed with HMAC-SHA256 over `<t>.<raw body>`, timestamp within 300 s',
  requirements: [...new Set(Object.values(BY_REASON)), 'WH-DELIVERY-HTTP-POST-JSON', 'WH-EVENT-PAYMENT-CANCELLED', 'WH-CONFIG-ENDPOINTS'],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks', 'security'],
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const subject = await webhookSubject(ctx);
    const ids: string[] = [];
    const base = Math.ceil(Number(await acceptedAmount(ctx, 'USD', '31')));
    for (let i = 0; i < 3; i++) {
      const created = await createPayment(subject.api, {
        amount: `${base + i}.00`,
        currency: 'USD',
        externalId: `sig-${Date.now().toString(36)}-${i}`,
      });
      ctx.requireStatus(created, 201, 'WH-EVENT-PAYMENT-CANCELLED', 'Setup: create');
      const cancelled = await cancelPayment(subject.api, created.payment.id);
      ctx.requireStatus(cancelled, '2xx', 'WH-EVENT-PAYMENT-CANCELLED', 'Setup: cancel');
      ids.push(created.payment.id);
    }
    const deliveries = await subject.endpoint.waitFor(
      (d) => ids.every((id) => eventsOf(d, 'payment.cancelled', id).length > 0),
      ctx.options.webhookWaitMs,
    );
    await ctx.clock.refresh();
    ctx.require(
      deliveries.length > 0,
      'WH-EVENT-PAYMENT-CANCELLED',
      'No webhook delivery arrived',
      `cancelled ${ids.length} payments, waited ${ctx.options.webhookWaitMs} ms at ${subject.endpoint.url}`,
    );
    for (const id of ids) {
      ctx.expect(
        eventsOf(deliveries, 'payment.cancelled', id).length > 0,
        'WH-EVENT-PAYMENT-CANCELLED',
        'payment.cancelled not delivered',
        `no payment.cancelled for ${id}; received ${describeDeliveries(deliveries)}`,
      );
    }
    // A POST whose body is JSON (spec §6); its Content-Type is judged with the other delivery headers (ours).
    for (const d of deliveries) {
      const contentType = String(d.headers['content-type'] ?? '');
      ctx.expectDelivery(
        d.method === 'POST' && d.json !== undefined,
        'WH-DELIVERY-HTTP-POST-JSON',
        'Delivery is not a POST with a JSON body',
        `${d.method}, content-type ${contentType}, body ${d.rawBody.slice(0, 100)}`,
        d,
        subject.secret,
      );
    }
    verifyDeliveries(ctx, subject, deliveries, (reason) => BY_REASON[reason] ?? 'WH-SIGN-HMAC');
  },
});
