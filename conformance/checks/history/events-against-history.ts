// Every payment event the receiver got, judged against what the payment really did (cross-cutting, at the end). The
// state flow is forward only and each event names a transition (spec §3, §6), so an event for a transition the payment
// never made is a failure; a late, repeated or out-of-order delivery of a real one is not. What the suite can prove
// from its own requests, without assuming anything the spec does not state:
// - payment.cancelled for a payment the run never asked to cancel: CANCELLED is reached only by DELETE. A DELETE the run
//   sent counts as asked whatever became of it (answered, cut off by a cleanup's time limit, still on its way), except
//   when it was answered with a refusal: then the payment must read CANCELLED now (CANCELLED is terminal), or the event
//   names a transition it never made.
// - payment.processing, .completed, .failed or .expired for a payment the run cancelled while it was ACTIVE (the DELETE
//   answered it CANCELLED) and that still reads CANCELLED after the event arrived: each of those transitions leaves
//   ACTIVE or PROCESSING, which the payment no longer was, and only a DELETE of an ACTIVE payment makes it CANCELLED.
// At most once per (payment, event): the spec says the service deduplicates on its side "but duplicate deliveries can
// occur", with no bound, so a second payload for a pair the receiver already acknowledged only warns (assumed
// WH-DELIVERY-ONCE-PER-EVENT); a byte-identical re-delivery, and retries after a non-2xx answer, are not counted.
import type { PaymentEventPayload } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import type { Received } from '../../received.ts';
import { getPayment } from '../../support/payments.ts';
import { awaitRunTail } from '../../webhooks/run-tail.ts';
import { runTailSources } from '../../support/run-tail-sources.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { PAYMENT_EVENT_REQUIREMENT as EVENT_REQUIREMENT } from '../../webhooks/event-requirements.ts';

const ONCE_REQUIREMENT = 'WH-DELIVERY-ONCE-PER-EVENT';

/** Per (payment, event), the distinct payloads the receiver acknowledged (2xx) after the first acknowledged one. */
function acknowledgedAgain(events: Delivery[]): Delivery[] {
  const firstBody = new Map<string, string>();
  const again: Delivery[] = [];
  for (const delivery of [...events].sort((a, b) => a.receivedAt - b.receivedAt)) {
    if (delivery.answeredStatus < 200 || delivery.answeredStatus >= 300) continue;
    const { event, data } = delivery.json as PaymentEventPayload;
    const key = `${event}\n${data.paymentId}`;
    const first = firstBody.get(key);
    if (first === undefined) firstBody.set(key, delivery.rawBody);
    else if (first !== delivery.rawBody && !again.some((d) => d.rawBody === delivery.rawBody)) again.push(delivery);
  }
  return again;
}

/** Which payments the run asked to cancel, as far as its own requests tell. */
interface CancelsAsked {
  /** A DELETE answered 2xx, or not answered (cut off, failed, still in flight): it may have taken effect. */
  taken: Set<string>;
  /** Every payment the run sent a DELETE for, whatever the answer (a refusal included). */
  sent: Set<string>;
}

/**
 * Cancels the run asked for: its recorded DELETEs, and those the end-of-check cleanups sent, noted before each left
 * (recorded or not yet: a cleanup cut at its time limit, an answer still on its way when this check judges).
 */
function cancelsAsked(ctx: CheckContext): CancelsAsked {
  const cleanup = ctx.services.createdPayments;
  const sent = new Set<string>(cleanup?.cancelsSent ?? []);
  const taken = new Set<string>([...sent].filter((id) => !cleanup?.cancelsRefused.has(id)));
  for (const exchange of ctx.services.recorder.all('service')) {
    const match = /\/v1\/payments\/([^/?]+)$/.exec(new URL(exchange.url).pathname);
    if (exchange.method !== 'DELETE' || !match) continue;
    const id = decodeURIComponent(match[1]!);
    sent.add(id);
    if (exchange.status === null || exchange.transportError !== null || (exchange.status >= 200 && exchange.status < 300)) taken.add(id);
  }
  return { taken, sent };
}

export const eventsAgainstHistory = defineCheck({
  id: 'history.events-against-history',
  title: 'Over the whole run, every payment event received names a transition the payment really made',
  requirements: [...Object.values(EVENT_REQUIREMENT), ONCE_REQUIREMENT],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks', 'cross-cutting', 'run-history'],
  // It re-reads a payment after its event arrived: alone, after the other readers, none of which sees those reads.
  resources: { sendsRequests: true },
  async run(ctx: CheckContext) {
    const histories = ctx.services.paymentHistories;
    // A prompt implementation has delivered by now; a late one gets up to the usual webhook wait after the run's last
    // request that may have changed something, until what those last writes imply has arrived and the receiver has gone
    // quiet (webhooks/run-tail.ts): a refused one (4xx: no write, spec §8) causes no event, so the cleanups' refused
    // cancels of payments already ended do not hold the whole run's end back.
    const last = ctx.services.recorder
      .all('service')
      .filter((e) => e.status === null || e.status < 400 || e.status >= 500)
      .at(-1);
    await awaitRunTail(runTailSources(ctx), last ? Date.parse(last.startedAt) + last.durationMs : 0);
    const events = ctx.receiver.all().filter((d) => {
      const body = d.json as Received<PaymentEventPayload> | undefined;
      return typeof body?.event === 'string' && body.event in EVENT_REQUIREMENT && histories?.get(String(body.data?.paymentId));
    });
    if (events.length === 0) ctx.notExercised('the receiver got no event for a payment the run read');
    ctx.addCases(events.length);
    ctx.judged(...new Set(events.map((d) => EVENT_REQUIREMENT[(d.json as PaymentEventPayload).event]!)));
    ctx.judged(ONCE_REQUIREMENT);
    const repeated = acknowledgedAgain(events);
    if (repeated.length > 0) {
      const { event, data } = repeated[0]!.json as PaymentEventPayload;
      ctx.failDelivery(
        ONCE_REQUIREMENT,
        'An event was delivered again after the receiver acknowledged it',
        `${repeated.length} payload(s) for a (payment, event) pair the receiver had already answered 2xx; first: ${event} for payment ${data.paymentId}, a different body from the acknowledged one. The spec allows duplicate deliveries without a bound, so this only warns.`,
        repeated[0]!,
      );
    }
    const asked = cancelsAsked(ctx);
    const reported = new Set<string>();
    const report = (delivery: Delivery, message: string) => {
      const { event, data } = delivery.json as PaymentEventPayload;
      const key = `${event}\n${data.paymentId}`;
      if (reported.has(key)) return;
      reported.add(key);
      ctx.failDelivery(EVENT_REQUIREMENT[event]!, `${event} for a transition the payment never made`, message, delivery);
    };
    for (const delivery of events) {
      const { event, data } = delivery.json as PaymentEventPayload;
      const history = histories!.get(data.paymentId)!;
      if (event === 'payment.cancelled') {
        if (asked.taken.has(data.paymentId)) continue;
        if (!asked.sent.has(data.paymentId)) {
          report(
            delivery,
            `payment ${data.paymentId} was never cancelled by the run (no DELETE of it), and only a DELETE cancels a payment`,
          );
          continue;
        }
        // Every DELETE of it was refused; one may still have cancelled it (a refusal can answer a second DELETE, or come
        // back for one that took effect): CANCELLED is terminal, so the payment as it reads now tells.
        const now = history.client ? await getPayment(history.client, data.paymentId) : undefined;
        if (now?.status === 200 && now.payment?.status !== undefined && now.payment.status !== 'CANCELLED')
          report(
            delivery,
            `payment ${data.paymentId} reads ${now.payment.status} after payment.cancelled arrived, and every DELETE the run sent for it was refused: CANCELLED is terminal, so it was never cancelled`,
          );
        continue;
      }
      const cancelledWhileActive = history.views.some((v) => v.via === 'cancel' && v.payment.status === 'CANCELLED');
      if (!cancelledWhileActive || !history.client) continue;
      // The payment as it is now, read after the event arrived.
      const now = await getPayment(history.client, data.paymentId);
      if (now.status === 200 && now.payment?.status === 'CANCELLED')
        report(
          delivery,
          `payment ${data.paymentId} was cancelled by the run while ACTIVE (DELETE answered CANCELLED) and still reads CANCELLED after ${event} arrived: the transition ${event} names never happened`,
        );
    }
  },
});
