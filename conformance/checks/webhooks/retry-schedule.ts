// Retries on the documented schedule: the receiver fails every attempt, the clock is advanced to
// just before and just after each due time, and attempts must arrive exactly then: 7 attempts at
// +0, 1 m, 6 m, 36 m, 2 h 36 m, 10 h 36 m, 34 h 36 m (cumulative) measured on the implementation's
// clock (conformance/webhooks/attempt-time.ts), with a tolerance of ±retryToleranceSeconds (default 2 s). Then no 8th attempt, and the delivery
// record shows failed.
import type { WebhookDelivery } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { attemptSeconds } from '../../webhooks/attempt-time.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { distinctAttempts } from '../../webhooks/attempts.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { readList } from '../../support/lists.ts';
import { SUBJECT_PREMISES, describeDeliveries, eventsOf, verifyDeliveries, webhookSubject } from './subject.ts';

/** Cumulative seconds after attempt 1 (spec §6 table). */
export const RETRY_OFFSETS_S = [0, 60, 360, 2160, 9360, 38160, 124560];

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
  resources: { exclusive: ['clock', 'main-webhook-endpoint'] },
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    if (!ctx.canMoveClock)
      ctx.notExercised(
        'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
      );
    const tolerance = ctx.options.retryToleranceSeconds;
    const subject = await webhookSubject(ctx, { status: 500 });
    const created = await createPayment(subject.api, { amount: await acceptedAmount(ctx, 'USD', '64.00'), currency: 'USD' });
    ctx.requireStatus(created, 201, 'WH-RETRY-ATTEMPT-1', 'Setup: create');
    const paymentId = created.payment.id;
    // Only this payment's deliveries count: without a control API the endpoint is the main merchant's, and payments
    // of other checks expire (and are notified) while the clock moves by days.
    // Copies of one attempt (same body and t) are one attempt: duplicates are legal (spec §6).
    const mine = (deliveries: Delivery[]) => distinctAttempts(eventsOf(deliveries, 'payment.cancelled', paymentId));
    ctx.requireStatus(await cancelPayment(subject.api, paymentId), '2xx', 'WH-RETRY-ATTEMPT-1', 'Setup: cancel');
    const first = mine(await subject.endpoint.waitFor((d) => mine(d).length >= 1, ctx.options.webhookWaitMs));
    ctx.require(first.length === 1, 'WH-RETRY-ATTEMPT-1', 'First attempt did not arrive (once)', `received ${describeDeliveries(first)}`);
    const t0 = attemptSeconds(first[0]!);
    ctx.require(Number.isFinite(t0), 'WH-TIMESTAMP-RESTAMPED', 'First attempt has no X-Service-Timestamp', 'missing header');
    await ctx.clock.refresh();
    verifyDeliveries(ctx, subject, first, () => 'WH-SIGN-HMAC');
    // The virtual clock also runs with wall time, so it is re-read before every move.
    const serverSeconds = async () => Math.floor((await ctx.clock.refresh()) / 1000);
    let now = await serverSeconds();
    // From outside (libfaketime) each attempt fires when the target wakes after its due time, a little late, and the
    // next is scheduled from that moment: there each interval is measured from the previous attempt's timestamp.
    const fromPrevious = !ctx.services.control;
    let previous = t0;
    for (let attempt = 2; attempt <= 7; attempt++) {
      const interval = RETRY_OFFSETS_S[attempt - 1]! - RETRY_OFFSETS_S[attempt - 2]!;
      // From outside, an implementation may count each retry from attempt 1 (the cumulative column) or from the moment the
      // previous attempt actually went out (the interval column); both read the table faithfully, and they differ by
      // how late the previous attempt woke up. With a control API the two coincide, so the cumulative time is exact.
      const cumulativeDue = t0 + RETRY_OFFSETS_S[attempt - 1]!;
      const dues = fromPrevious ? [cumulativeDue, previous + interval] : [cumulativeDue];
      const due = Math.min(...dues);
      const lastDue = Math.max(...dues);
      now = await serverSeconds();
      // Just before the due time: nothing new may arrive (no early retry).
      const early = due - tolerance - 1 - now;
      if (early > 0) {
        await ctx.advanceClock(early * 1000);
        now = await serverSeconds();
        const seen = mine(await subject.endpoint.settle(ctx.options.webhookQuietMs));
        // Judged by when each new attempt arrived on the implementation's clock: that clock keeps running while the
        // suite waits for quiet, so an attempt that arrives during the wait may be on time.
        const arrivedEarly = seen.slice(attempt - 1).filter((d) => Math.floor(ctx.clock.at(d.receivedAt) / 1000) < due - tolerance);
        ctx.expect(
          seen.length < attempt || arrivedEarly.length === 0,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} came early`,
          `attempt ${attempt} arrived at +${Math.floor(ctx.clock.at((arrivedEarly[0] ?? seen[attempt - 1])?.receivedAt ?? 0) / 1000) - t0} s after attempt 1; it is due at +${due - t0} s at the earliest, ±${tolerance} s`,
        );
        ctx.expect(
          seen.length <= attempt,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} came early`,
          `by ${now - t0} s after attempt 1 there were ${seen.length} attempts; attempt ${attempt} is due at +${due - t0} s at the earliest, ±${tolerance} s`,
        );
      }
      // A control API fires timers at their due time whatever the jump; a clock moved from outside (libfaketime) makes
      // them fire when the target wakes up after it, so the suite lands on the due time itself and lets them run.
      const late = (ctx.services.control ? due + tolerance + 1 : lastDue) - now;
      await ctx.advanceClock(late * 1000);
      now = await serverSeconds();
      const seen = mine(await subject.endpoint.waitFor((d) => mine(d).length >= attempt, ctx.options.webhookWaitMs));
      ctx.addCases();
      if (
        !ctx.expect(
          seen.length >= attempt,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} missing`,
          `by +${now - t0} s only ${seen.length} attempts arrived (attempt ${attempt} due at +${RETRY_OFFSETS_S[attempt - 1]} s)`,
        )
      )
        return;
      const delivery = seen[attempt - 1]!;
      verifyDeliveries(ctx, subject, [delivery], () => 'WH-SIGN-HMAC');
      const stamp = attemptSeconds(delivery);
      if (fromPrevious) {
        const gap = stamp - previous;
        const offset = stamp - t0;
        const onTime = Math.abs(offset - RETRY_OFFSETS_S[attempt - 1]!) <= tolerance || Math.abs(gap - interval) <= tolerance;
        ctx.expectDelivery(
          onTime,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} at the wrong time`,
          `attempt time is +${offset} s after attempt 1 and ${gap} s after attempt ${attempt - 1}; expected +${RETRY_OFFSETS_S[attempt - 1]} s after attempt 1 or ${interval} s after attempt ${attempt - 1}, ±${tolerance} s`,
          delivery,
          subject.secret,
        );
      } else {
        const offset = stamp - t0;
        ctx.expectDelivery(
          Math.abs(offset - RETRY_OFFSETS_S[attempt - 1]!) <= tolerance,
          `WH-RETRY-ATTEMPT-${attempt}`,
          `Attempt ${attempt} at the wrong time`,
          `attempt time is +${offset} s after attempt 1; expected +${RETRY_OFFSETS_S[attempt - 1]} s ±${tolerance} s`,
          delivery,
          subject.secret,
        );
      }
      previous = stamp;
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
    await ctx.advanceClock(48 * 3600_000);
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
