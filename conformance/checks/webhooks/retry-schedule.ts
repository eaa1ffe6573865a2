// Retries on the documented schedule: the receiver fails every attempt, the clock is advanced to
// just before and just after each due time, and attempts must arrive then: 7 attempts at
// +0, 1 m, 6 m, 36 m, 2 h 36 m, 10 h 36 m, 34 h 36 m (cumulative). Each attempt is timed by when it arrived, on the
// implementation's clock as the suite moves it (webhooks/retry-timing.ts), never by a header the implementation writes,
// within ±retryToleranceSeconds (default 2 s) of its due time or of the moment the suite woke the implementation past
// it. Then no 8th attempt, and the delivery record shows failed. The check runs on a merchant of its own (control API)
// or, black-box, after every payment the run left ACTIVE is cancelled, so no expiry of another check's payments loads
// the implementation while it is timed.
import type { WebhookDelivery } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { distinctAttempts } from '../../webhooks/attempts.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { readList } from '../../support/lists.ts';
import { SUBJECT_PREMISES, describeDeliveries, eventsOf, verifyDeliveries, webhookSubject } from './subject.ts';

import { type AttemptSpan, RETRY_OFFSETS_S, dueWindow, judgeArrival } from '../../webhooks/retry-timing.ts';

export { RETRY_OFFSETS_S };

export const retrySchedule = defineCheck({
  id: 'webhooks.retry-schedule',
  title: 'A failing receiver gets exactly 7 attempts on the 0/1m/5m/30m/2h/8h/24h schedule, then the delivery is failed',
  requirements: [
    'WH-RETRY-TOTAL-ATTEMPTS',
    ...RETRY_OFFSETS_S.map((_, i) => `WH-RETRY-ATTEMPT-${i + 1}`),
    'WH-RETRY-VIRTUAL-CLOCK',
    'WH-DELIVERIES-INSPECTABLE',
    'WH-DELIVERIES-LIST-FILTERS',
    'WH-DELIVERY-RECORD-SHAPE',
    'WH-BODY-IDENTICAL',
    'WH-TIMESTAMP-RESTAMPED',
    'WH-SIGN-HMAC',
    'WH-CONFIG-ENDPOINTS',
  ],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks', 'clock'],
  resources: { exclusive: ['clock'] },
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    if (!ctx.canMoveClock)
      ctx.notExercised(
        'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
      );
    const subject = await webhookSubject(ctx, { status: 500 });
    const created = await createPayment(subject.api, { amount: await acceptedAmount(ctx, 'USD', '64.00'), currency: 'USD' });
    ctx.requireStatus(created, 201, 'WH-RETRY-ATTEMPT-1', 'Setup: create');
    const paymentId = created.payment.id;
    // Only this payment's deliveries count: without a control API the endpoint is the main merchant's, and payments
    // of other checks expire (and are notified) while the clock moves by days.
    // Copies of one attempt (same body and t) are one attempt: duplicates are legal (spec §6).
    // A retry is told from a copy by the clock move it arrived after (the suite lets copies settle before it moves).
    const moves: number[] = [];
    const moveClock = async (ms: number) => {
      moves.push(Date.now());
      await ctx.advanceClock(ms);
    };
    const epoch = (delivery: Delivery) => String(moves.filter((at) => at <= delivery.receivedAt).length);
    const mine = (deliveries: Delivery[]) => distinctAttempts(eventsOf(deliveries, 'payment.cancelled', paymentId), epoch);
    // Attempt 1 cannot leave before the cancel is asked for.
    const cancelledFrom = await ctx.clock.refresh();
    ctx.requireStatus(await cancelPayment(subject.api, paymentId), '2xx', 'WH-RETRY-ATTEMPT-1', 'Setup: cancel');
    const first = mine(await subject.endpoint.waitFor((d) => mine(d).length >= 1, ctx.options.webhookWaitMs));
    await subject.endpoint.settle(ctx.options.webhookQuietMs);
    ctx.require(first.length === 1, 'WH-RETRY-ATTEMPT-1', 'First attempt did not arrive (once)', `received ${describeDeliveries(first)}`);
    // Arrivals are read on the implementation's clock before the suite moves it again (the clock's mapping changes).
    const arrival = (delivery: Delivery) => ctx.clock.at(delivery.receivedAt);
    const spans: AttemptSpan[] = [{ lo: cancelledFrom, hi: arrival(first[0]!) }];
    ctx.require(
      first[0]!.headers['x-service-timestamp'] !== undefined,
      'WH-TIMESTAMP-RESTAMPED',
      'First attempt has no X-Service-Timestamp',
      'missing header',
    );
    verifyDeliveries(ctx, subject, first, () => 'WH-SIGN-HMAC');
    const tolerance = ctx.options.retryToleranceSeconds * 1000;
    // A clock moved from outside (libfaketime) wakes the implementation a little after each due time, so an
    // implementation that counts each delay from the previous attempt's real departure drifts from the cumulative
    // column by that much; a control API fires timers at their due times, where the two columns coincide.
    const fromPrevious = !ctx.services.control;
    const at = (ms: number) => `+${((ms - spans[0]!.hi) / 1000).toFixed(1)} s`;
    for (let attempt = 2; attempt <= 7; attempt++) {
      const window = dueWindow(spans[0]!, spans[attempt - 2]!, attempt, fromPrevious);
      const due = `due at ${at(window.lo)}${window.hi - window.lo >= 100 ? ` to ${at(window.hi)}` : ''} after attempt 1 arrived, ±${tolerance / 1000} s`;
      // The clock also runs with wall time, so it is re-read before every move.
      let now = await ctx.clock.refresh();
      let lo = now;
      // Just before the due time: nothing new may arrive (no early retry).
      const early = window.lo - tolerance - 1000 - now;
      if (early > 0) {
        await moveClock(early);
        await ctx.clock.refresh();
        const seen = mine(await subject.endpoint.settle(ctx.options.webhookQuietMs));
        now = await ctx.clock.refresh();
        const arrivedEarly = seen.slice(attempt - 1).find((d) => arrival(d) < window.lo - tolerance);
        ctx.expect(
          arrivedEarly === undefined,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} came early`,
          () => `attempt ${attempt} arrived at ${at(arrival(arrivedEarly!))} after attempt 1; it is ${due}`,
        );
        ctx.expect(
          seen.length <= attempt,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} came early`,
          `by ${at(now)} after attempt 1 there were ${seen.length} attempts; attempt ${attempt} is ${due}`,
        );
        if (seen.length < attempt) lo = now;
      }
      // Land on the end of the window and let the implementation run what fell due; it cannot send before it wakes there.
      const late = window.hi - now;
      if (late > 0) await moveClock(late);
      const wokenAt = await ctx.clock.refresh();
      const seen = mine(await subject.endpoint.waitFor((d) => mine(d).length >= attempt, ctx.options.webhookWaitMs));
      ctx.addCases();
      if (
        !ctx.expect(
          seen.length >= attempt,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} missing`,
          `by ${at(ctx.clock.now())} after attempt 1 only ${seen.length} attempts arrived (attempt ${attempt} is ${due})`,
        )
      )
        return;
      // Copies of this attempt arrive with it, before the next move.
      await subject.endpoint.settle(ctx.options.webhookQuietMs);
      const delivery = seen[attempt - 1]!;
      const arrivedAt = arrival(delivery);
      spans.push({ lo: Math.min(lo, arrivedAt), hi: arrivedAt });
      verifyDeliveries(ctx, subject, [delivery], () => 'WH-SIGN-HMAC');
      const verdict = judgeArrival(arrivedAt, window, wokenAt, tolerance);
      ctx.expectDelivery(
        verdict === 'on-time',
        `WH-RETRY-ATTEMPT-${attempt}`,
        `Attempt ${attempt} at the wrong time`,
        `attempt ${attempt} arrived ${verdict} at ${at(arrivedAt)} after attempt 1 (the suite woke the implementation at ${at(wokenAt)}); it is ${due}`,
        delivery,
        subject.secret,
      );
      ctx.expectDelivery(
        delivery.rawBody === first[0]!.rawBody,
        'WH-BODY-IDENTICAL',
        'Retry body differs from the first attempt',
        `attempt ${attempt} body ${delivery.rawBody.slice(0, 120)}`,
        delivery,
        subject.secret,
      );
    }
    await ctx.clock.refresh();
    await moveClock(48 * 3600_000);
    const all = mine(await subject.endpoint.settle(ctx.options.webhookQuietMs));
    ctx.expect(
      all.length === 7,
      'WH-RETRY-TOTAL-ATTEMPTS',
      'Not exactly 7 attempts',
      `${all.length} attempts in total (48 h after attempt 7): ${describeDeliveries(all)}`,
    );
    // Deliveries can be inspected (documented); the filter, the record and its `failed` status are ours (not shown),
    // so what is read from them warns.
    const record = await subject.api.get('/v1/webhooks/deliveries', { paymentId });
    if (
      !ctx.expect(
        record.status === 200,
        'WH-DELIVERIES-INSPECTABLE',
        'GET /v1/webhooks/deliveries does not answer',
        () => `answered ${record.status}: ${record.text.slice(0, 300)}`,
        record.exchange,
      )
    )
      return;
    ctx.expect(
      record.text.includes(paymentId),
      'WH-DELIVERIES-LIST-FILTERS',
      'The deliveries list filtered by paymentId does not show the delivery',
      () => `no mention of ${paymentId}: ${record.text.slice(0, 300)}`,
      record.exchange,
    );
    const items = ((await readList<Received<WebhookDelivery>>(ctx, record)).items ?? []).filter((d) => d.event === 'payment.cancelled');
    ctx.expect(
      items.length === 1 && items[0]!.status === 'failed',
      'WH-RETRY-VIRTUAL-CLOCK',
      'Delivery is not marked failed after 7 attempts',
      () => `GET /v1/webhooks/deliveries?paymentId answered ${record.status}: ${record.text.slice(0, 300)}`,
      record.exchange,
    );
    ctx.expect(
      items[0]?.attempts?.length === 7,
      'WH-DELIVERY-RECORD-SHAPE',
      'Delivery record does not list 7 attempts',
      `attempts: ${items[0]?.attempts?.length}`,
      record.exchange,
    );
  },
});
