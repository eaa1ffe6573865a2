// Retries on the documented schedule: the receiver fails every attempt, the clock is advanced to
// just before and just after each due time, and attempts must arrive exactly then: 7 attempts at
// +0, 1 m, 6 m, 36 m, 2 h 36 m, 10 h 36 m, 34 h 36 m (cumulative) measured on the implementation's
// clock (conformance/webhooks/attempt-time.ts), with a tolerance of ±retryToleranceSeconds (default 2 s). Then no 8th attempt, and the delivery
// record shows failed.
import type { WebhookDeliveryList } from '../../../contract/types.ts';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { attemptSeconds } from '../../webhooks/attempt-time.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import type { Received } from '../../support/received.ts';
import { describeDeliveries, verifyDeliveries, webhookSubject } from './subject.ts';

/** Cumulative seconds after attempt 1 (spec §6 table). */
export const RETRY_OFFSETS_S = [0, 60, 360, 2160, 9360, 38160, 124560];

export const retrySchedule = defineCheck({
  id: 'webhooks.retry-schedule',
  title: 'A failing receiver gets exactly 7 attempts on the 0/1m/5m/30m/2h/8h/24h schedule, then the delivery is failed',
  requirements: ['WH-RETRY-TOTAL-ATTEMPTS', ...RETRY_OFFSETS_S.map((_, i) => `WH-RETRY-ATTEMPT-${i + 1}`), 'WH-RETRY-VIRTUAL-CLOCK', 'WH-DELIVERIES-INSPECTABLE', 'WH-BODY-IDENTICAL', 'WH-TIMESTAMP-RESTAMPED', 'WH-SIGN-HMAC', 'WH-CONFIG-ENDPOINTS'],
  level: 'documented',
  needs: ['control', 'webhook-receiver'],
  tags: ['webhooks', 'clock'],
  async run(ctx: CheckContext) {
    const tolerance = ctx.options.retryToleranceSeconds;
    const subject = await webhookSubject(ctx, { status: 500 });
    const created = await createPayment(subject.api, { amount: '64.00', currency: 'USD' });
    ctx.requireStatus(created, 201, 'WH-RETRY-ATTEMPT-1', 'Setup: create');
    const paymentId = created.payment.id;
    ctx.requireStatus(await cancelPayment(subject.api, paymentId), 200, 'WH-RETRY-ATTEMPT-1', 'Setup: cancel');
    const first = await subject.endpoint.waitFor((d) => d.length >= 1, ctx.options.webhookWaitMs);
    ctx.require(first.length === 1, 'WH-RETRY-ATTEMPT-1', 'First attempt did not arrive (once)', `received ${describeDeliveries(first)}`);
    const t0 = attemptSeconds(first[0]!);
    ctx.require(Number.isFinite(t0), 'WH-TIMESTAMP-RESTAMPED', 'First attempt has no X-Service-Timestamp', 'missing header');
    await ctx.clock.refresh();
    verifyDeliveries(ctx, subject, first, () => 'WH-SIGN-HMAC');
    // The virtual clock also runs with wall time, so it is re-read before every move.
    const serverSeconds = async () => Math.floor((await ctx.clock.refresh()) / 1000);
    let now = await serverSeconds();
    for (let attempt = 2; attempt <= 7; attempt++) {
      const due = t0 + RETRY_OFFSETS_S[attempt - 1]!;
      now = await serverSeconds();
      // Just before the due time: nothing new may arrive (no early retry).
      const early = due - tolerance - 1 - now;
      if (early > 0) {
        await ctx.control.advance(early * 1000);
        now = await serverSeconds();
        const seen = await subject.endpoint.settle(ctx.options.webhookQuietMs);
        ctx.expect(seen.length === attempt - 1, `WH-RETRY-ATTEMPT-${attempt}`, `Attempt ${attempt} came early`, `by ${now - t0} s after attempt 1 there were ${seen.length} attempts; attempt ${attempt} is due at +${RETRY_OFFSETS_S[attempt - 1]} s ±${tolerance} s`);
      }
      const late = due + tolerance + 1 - now;
      await ctx.control.advance(late * 1000);
      now = await serverSeconds();
      const seen = await subject.endpoint.waitFor((d) => d.length >= attempt, ctx.options.webhookWaitMs);
      ctx.addCases();
      if (!ctx.expect(seen.length >= attempt, `WH-RETRY-ATTEMPT-${attempt}`, `Attempt ${attempt} missing`, `by +${now - t0} s only ${seen.length} attempts arrived (attempt ${attempt} due at +${RETRY_OFFSETS_S[attempt - 1]} s)`)) return;
      const delivery = seen[attempt - 1]!;
      verifyDeliveries(ctx, subject, [delivery], () => 'WH-SIGN-HMAC');
      const offset = attemptSeconds(delivery) - t0;
      ctx.expect(Math.abs(offset - RETRY_OFFSETS_S[attempt - 1]!) <= tolerance, `WH-RETRY-ATTEMPT-${attempt}`, `Attempt ${attempt} at the wrong time`, `attempt time is +${offset} s after attempt 1; expected +${RETRY_OFFSETS_S[attempt - 1]} s ±${tolerance} s`);
      ctx.expect(delivery.rawBody === first[0]!.rawBody, 'WH-BODY-IDENTICAL', 'Retry body differs from the first attempt', `attempt ${attempt} body ${delivery.rawBody.slice(0, 120)}`);
    }
    await ctx.clock.refresh();
    await ctx.control.advance(48 * 3600_000);
    const all = await subject.endpoint.settle(ctx.options.webhookQuietMs);
    ctx.expect(all.length === 7, 'WH-RETRY-TOTAL-ATTEMPTS', 'Not exactly 7 attempts', `${all.length} attempts in total (48 h after attempt 7): ${describeDeliveries(all)}`);
    const record = await subject.api.get('/v1/webhooks/deliveries', { paymentId });
    const items = ((record.json as Received<WebhookDeliveryList> | undefined)?.data ?? []).filter((d) => d.event === 'payment.cancelled');
    ctx.expect(record.status === 200 && items.length === 1 && items[0]!.status === 'failed', 'WH-RETRY-VIRTUAL-CLOCK', 'Delivery is not marked failed after 7 attempts', () => `GET /v1/webhooks/deliveries?paymentId answered ${record.status}: ${record.text.slice(0, 300)}`, record.exchange);
    ctx.expect(items[0]?.attempts?.length === 7, 'WH-DELIVERIES-INSPECTABLE', 'Delivery record does not list 7 attempts', `attempts: ${items[0]?.attempts?.length}`, record.exchange);
  },
});
