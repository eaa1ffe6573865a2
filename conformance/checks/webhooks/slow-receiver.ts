// A receiver that answers after 11 s (real time) exceeds the 10 s limit: the attempt counts as
// failed and is retried after 1 minute. Costs ~11 s of wall time, so it is tagged `slow`
// (--skip slow); it runs by default because the full default run stays within budget.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { distinctAttempts } from '../../webhooks/attempts.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { SUBJECT_PREMISES, describeDeliveries, eventsOf, webhookSubject } from './subject.ts';

export const SLOW_RESPONSE_MS = 11_000;

/** The clock jump after the slow attempt: the second attempt is due 1 minute after the first failed. */
const RETRY_JUMP_MS = 65_000;

/** With a control API: how long the retry may take to arrive after the first jump before one more jump is made. */
const FIRST_LOOK_MS = 1_500;

/**
 * Black-box: real time between the receiver's prompt 200 (and the quiet after it) and the next clock jump, for the target
 * to read the answer: a jump before would time the attempt out on the target's side (libfaketime moves its timers too).
 */
const RESPONSE_MARGIN_MS = 300;

/** The margin of the second look, when an attempt came after the first jump (see run): for a slow or loaded target. */
const LONG_RESPONSE_MARGIN_MS = 2_000;

/** The jump after the prompt 200: past attempt 3's due time (5 minutes after attempt 2). */
const QUIET_JUMP_MS = 10 * 60_000;

/** The second look's jump: past attempt 4's due time (30 minutes after attempt 3). */
const LONG_QUIET_JUMP_MS = 40 * 60_000;

export const slowReceiver = defineCheck({
  id: 'webhooks.slow-receiver-timeout',
  title: 'A receiver slower than 10 s counts as a failed attempt and is retried',
  requirements: ['WH-DELIVERY-TIMEOUT-10S', 'WH-DELIVERY-SUCCESS-2XX', 'WH-RETRY-ATTEMPT-2', 'WH-CONFIG-ENDPOINTS'],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks', 'slow', 'clock'],
  resources: { exclusive: ['clock'] },
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    if (!ctx.canMoveClock) ctx.notExercised('no control API and no clock the suite can move');
    const subject = await webhookSubject(ctx, { status: 200, delayMs: SLOW_RESPONSE_MS });
    const created = await createPayment(subject.api, { amount: await acceptedAmount(ctx, 'USD', '21.00'), currency: 'USD' });
    ctx.requireStatus(created, 201, 'WH-DELIVERY-TIMEOUT-10S', 'Setup: create');
    ctx.requireStatus(await cancelPayment(subject.api, created.payment.id), '2xx', 'WH-DELIVERY-TIMEOUT-10S', 'Setup: cancel');
    // Only this payment's attempts count: without a control API the endpoint is the main merchant's, and payments of
    // other checks expire (and are notified) while the clock moves.
    const mine = (deliveries: Delivery[]) => distinctAttempts(eventsOf(deliveries, 'payment.cancelled', created.payment.id));
    const first = mine(await subject.endpoint.waitFor((d) => mine(d).length >= 1, ctx.options.webhookWaitMs));
    ctx.require(first.length === 1, 'WH-DELIVERY-TIMEOUT-10S', 'First attempt did not arrive', `received ${describeDeliveries(first)}`);
    ctx.progress(`receiver holds the first attempt for ${SLOW_RESPONSE_MS / 1000} s`);
    const virtualClock = Boolean(ctx.services.control);
    if (virtualClock) {
      // A control API's clock moves no timer of the target's process: go on as soon as the implementation stops
      // waiting (it hangs up at its 10 s limit), or at our late answer when it keeps the connection open.
      await subject.endpoint.givenOrHungUp(first[0]!.id);
      const hungUp = first[0]!.senderHungUpAfterMs;
      if (hungUp !== undefined) ctx.progress(`the implementation hung up after ${(hungUp / 1000).toFixed(1)} s`);
    } else {
      // Black-box, libfaketime moves the target's own timers: wait until the receiver has given its late answer
      // (the implementation gave up on it at 10 s), a second after the limit for the attempt's record.
      await subject.endpoint.answered(first[0]!.id);
    }
    subject.endpoint.behaviour = { status: 200 };
    // The retry is due a minute after the implementation records the attempt as failed, some time after its 10 s
    // limit (after our late answer, on a slow or loaded target): 65 s covers a record up to 5 s after the limit.
    await ctx.advanceClock(RETRY_JUMP_MS);
    let jumps = 1;
    let seen = mine(await subject.endpoint.waitFor((d) => mine(d).length >= 2, virtualClock ? FIRST_LOOK_MS : ctx.options.webhookWaitMs));
    if (virtualClock && seen.length < 2) {
      // Gone on at the hang-up, the jump may have come before the implementation recorded the attempt: its retry is
      // then due a minute after that record. One more jump covers it; the third attempt is five minutes later still.
      await ctx.advanceClock(RETRY_JUMP_MS);
      jumps += 1;
      seen = mine(await subject.endpoint.waitFor((d) => mine(d).length >= 2, ctx.options.webhookWaitMs));
    }
    ctx.addCases();
    // The retry one minute on is attempt 2 of the schedule.
    if (
      ctx.expect(
        seen.length === 2,
        'WH-DELIVERY-TIMEOUT-10S',
        'A response after 11 s was not treated as a failure',
        `after advancing ${RETRY_JUMP_MS / 1000} s past the slow attempt${jumps > 1 ? ' twice' : ''}, ${seen.length} attempts arrived (expected a retry): ${describeDeliveries(seen)}`,
      )
    )
      ctx.judged('WH-RETRY-ATTEMPT-2');
    // The target has the receiver's 200 only some time after the attempt arrived here. A clock jump before that would
    // time the attempt out on the target's side (libfaketime moves its monotonic timers too) and cause a retry of the
    // suite's own making, so the jump waits for the receiver to go quiet and, when the clock is moved from outside, a
    // short margin (a control API's virtual clock moves no timer of the target's process).
    const outside = !ctx.services.control;
    let settled = await quietThenJump(outside ? RESPONSE_MARGIN_MS : 0, QUIET_JUMP_MS);
    let after = `${settled.length - 2} attempt(s) after the prompt 200 and a ${QUIET_JUMP_MS / 60_000}-minute jump`;
    let retriedAfterSuccess = settled.length !== 2;
    if (outside && settled.length === 3) {
      // One attempt after the jump: the target retried after the 200, or the jump came before it had read the 200 (a
      // slow or loaded target). A second look tells them apart: that attempt answered 200 at once too, a long margin,
      // and a jump past the next attempt's due time. A target that goes on after a 200 it had time to read retries again.
      ctx.progress('a third attempt came after the jump: answered 200, a second look with a longer margin');
      settled = await quietThenJump(LONG_RESPONSE_MARGIN_MS, LONG_QUIET_JUMP_MS);
      retriedAfterSuccess = settled.length !== 3;
      after = `a third attempt after the prompt 200 and a ${QUIET_JUMP_MS / 60_000}-minute jump ${RESPONSE_MARGIN_MS / 1000} s after the quiet (perhaps before the target had read the 200); answered 200 at once as well, ${settled.length - 3} more after ${LONG_RESPONSE_MARGIN_MS / 1000} s and a ${LONG_QUIET_JUMP_MS / 60_000}-minute jump`;
    }
    ctx.expect(
      !retriedAfterSuccess,
      'WH-DELIVERY-SUCCESS-2XX',
      'Retries continued after a successful attempt',
      `${after}: ${describeDeliveries(settled)}`,
    );

    async function quietThenJump(marginMs: number, jumpMs: number): Promise<Delivery[]> {
      await subject.endpoint.settle(ctx.options.webhookQuietMs);
      if (marginMs > 0) await new Promise((resolve) => setTimeout(resolve, marginMs));
      await ctx.advanceClock(jumpMs);
      return mine(await subject.endpoint.settle(ctx.options.webhookQuietMs));
    }
  },
});
