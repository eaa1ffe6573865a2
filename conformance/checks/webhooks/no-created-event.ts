// API-key creates emit no payment.created (spec §3, §6): after creating payments, a quiet period
// passes with no delivery about them (and no payment.created at all).
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { subjectIdOf } from '../../webhooks/run-endpoint.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { SUBJECT_PREMISES, describeDeliveries, eventsOf, webhookSubject } from './subject.ts';

/**
 * The deliveries the creates could have caused: a payment.created for any payment routed to the check, or any event
 * about the check's own payments before it touched them. Not the events of other payments made in its name: the first
 * check to need payments.minimum-amounts runs that premise's probe, whose payments are created and cancelled in its
 * scope, so their payment.cancelled events are routed to it (a legal implementation sends them).
 */
export function causedByCreates(deliveries: Delivery[], created: readonly string[]): Delivery[] {
  const own = new Set(created);
  return deliveries.filter((d) => eventsOf([d], 'payment.created').length > 0 || own.has(subjectIdOf(d.json) ?? ''));
}

export const noCreatedEvent = defineCheck({
  id: 'webhooks.no-created-event',
  title: 'Creating payments with an API key sends no webhook (no payment.created)',
  requirements: ['PAY-STATE-CREATE-NO-CREATED-EVENT', 'WH-CONFIG-ENDPOINTS'],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks'],
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const subject = await webhookSubject(ctx);
    const ids: string[] = [];
    const base = Math.ceil(Number(await acceptedAmount(ctx, 'USD', '50')));
    for (let i = 0; i < 3; i++) {
      const created = await createPayment(subject.api, { amount: `${base + i}`, currency: 'USD' });
      ctx.requireStatus(created, 201, 'PAY-STATE-CREATE-NO-CREATED-EVENT', 'Setup: create');
      ids.push(created.payment.id);
      ctx.addCases();
    }
    // Long enough for an implementation that delivers promptly (it delivers cancels within it, see webhooks.signature).
    await new Promise((resolve) => setTimeout(resolve, Math.min(1500, ctx.options.webhookWaitMs)));
    const deliveries = causedByCreates(await subject.endpoint.settle(ctx.options.webhookWaitMs > 1000 ? 300 : 100), ids);
    if (deliveries.length > 0)
      ctx.failDelivery(
        'PAY-STATE-CREATE-NO-CREATED-EVENT',
        'API-key creates triggered webhooks',
        `received ${describeDeliveries(deliveries)}`,
        deliveries[0]!,
        subject.secret,
      );
    // Silence only means something if this endpoint does receive events: a cancel must arrive.
    ctx.requireStatus(await cancelPayment(subject.api, ids[0]!), '2xx', 'PAY-STATE-CREATE-NO-CREATED-EVENT', 'Setup: cancel');
    const after = await subject.endpoint.waitFor((d) => eventsOf(d, 'payment.cancelled', ids[0]).length > 0, ctx.options.webhookWaitMs);
    if (eventsOf(after, 'payment.cancelled', ids[0]).length === 0)
      ctx.notExercised('the endpoint received no payment.cancelled either, so the silence after creates proves nothing');
    // The endpoint receives events, and none came for the creates.
    ctx.judged('PAY-STATE-CREATE-NO-CREATED-EVENT');
  },
});
