// Absence judged over the whole run: no payment.created may ever reach the receiver for a payment
// created with an API key (spec §3, §6), however late it is sent. Runs at the end (cross-cutting)
// over every delivery the receiver got from every check, against every API create the run made.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { awaitRunTail } from '../../webhooks/run-tail.ts';
import { runTailSources } from '../../support/run-tail-sources.ts';
import { describeDeliveries, eventsOf } from './subject.ts';

/** Ids of the payments the run created through POST /v1/payments (201), and when the last one was. */
function apiCreates(ctx: CheckContext): { ids: Set<string>; lastAt: number } {
  const ids = new Set<string>();
  let lastAt = 0;
  for (const exchange of ctx.services.recorder.answered('service')) {
    if (exchange.method !== 'POST' || exchange.status !== 201 || !/\/v1\/payments$/.test(new URL(exchange.url).pathname)) continue;
    try {
      const id = (JSON.parse(exchange.responseBody) as { id?: unknown }).id;
      if (typeof id === 'string') ids.add(id);
      lastAt = Math.max(lastAt, Date.parse(exchange.startedAt) + exchange.durationMs);
    } catch {
      // Not JSON: response.conformance reports it.
    }
  }
  return { ids, lastAt };
}

export const createdEventSweep = defineCheck({
  id: 'webhooks.no-created-event-sweep',
  title: 'Over the whole run, no payment.created reached the receiver for a payment created with an API key',
  requirements: ['PAY-STATE-CREATE-NO-CREATED-EVENT', 'WH-EVENT-PAYMENT-CREATED'],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks', 'cross-cutting'],
  async run(ctx: CheckContext) {
    const { ids, lastAt } = apiCreates(ctx);
    if (ids.size === 0) ctx.notExercised('the run created no payment with an API key (run it with other checks)');
    // A prompt implementation has delivered by now; a late one gets up to the usual webhook wait after the last
    // create, until the receiver has gone quiet (webhooks/run-tail.ts; in a full run that time has long passed).
    await awaitRunTail(runTailSources(ctx), lastAt);
    const all = ctx.receiver.all();
    // Silence only means something if the implementation does deliver to the receiver.
    if (all.length === 0)
      ctx.notExercised('the receiver got no delivery at all in this run, so the absence of payment.created proves nothing');
    ctx.addCases(all.length);
    ctx.judged('PAY-STATE-CREATE-NO-CREATED-EVENT', 'WH-EVENT-PAYMENT-CREATED');
    const created = eventsOf(all, 'payment.created').filter((d) =>
      ids.has(String((d.json as { data?: { paymentId?: unknown } }).data?.paymentId)),
    );
    // The first offending delivery travels with the finding, as received.
    if (created.length > 0)
      ctx.failDelivery(
        'PAY-STATE-CREATE-NO-CREATED-EVENT',
        'payment.created was sent for API-key creates',
        `${created.length} of ${all.length} deliveries in the run: ${describeDeliveries(created.slice(0, 5))} for ${[...new Set(created.map((d) => (d.json as { data?: { paymentId?: string } }).data?.paymentId))].slice(0, 3).join(', ')}`,
        created[0]!,
      );
  },
});
