// Expiry through the implementation's clock alone: an ACTIVE payment is still ACTIVE just before expiresAt, EXPIRED
// just after, payment.expired is delivered signed and names the payment, and its externalId is free again. Runs with
// the control API's clock or, black-box, with libfaketime; no customer is needed.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, getPayment, uniqueExternalId, type Payment } from '../../support/payments.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { SUBJECT_PREMISES, describeDeliveries, eventsOf, verifyDeliveries, webhookSubject } from '../webhooks/subject.ts';

const LIFETIME_MS = 16 * 60_000;
/** How far either side of expiresAt the clock is put (the clock moves in whole seconds from outside). */
const MARGIN_MS = 30_000;

async function statusAfterSettling(
  ctx: CheckContext,
  api: Parameters<typeof getPayment>[0],
  id: string,
  until: (status: string | undefined) => boolean,
) {
  // A clock moved from outside fires the target's timers asynchronously: look again for a short while.
  const deadline = Date.now() + ctx.options.webhookWaitMs;
  for (;;) {
    const current = await getPayment(api, id);
    const status = (current.json as Payment | undefined)?.status;
    if (until(status) || Date.now() > deadline) return current;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const expiryByClock = defineCheck({
  id: 'lifecycle.expiry',
  title: 'An ACTIVE payment expires at expiresAt (not before), payment.expired is delivered, and its externalId is free again',
  requirements: [
    'PAY-STATE-ACTIVE-TO-EXPIRED',
    'PAY-STATE-MEANING-EXPIRED',
    'WH-EVENT-PAYMENT-EXPIRED',
    'PAY-STATE-EXPIRES-AT-INSTANT',
    'PAY-CREATE-EXTERNAL-ID-REUSABLE',
    'WH-SIGN-HMAC',
    'WH-CONFIG-ENDPOINTS',
  ],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['lifecycle', 'webhooks', 'clock'],
  resources: { exclusive: ['clock'] },
  premises: [...SUBJECT_PREMISES, 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    if (!ctx.canMoveClock)
      ctx.notExercised(
        'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
      );
    const subject = await webhookSubject(ctx);
    const externalId = uniqueExternalId('exp');
    const now = await ctx.clock.refresh();
    const created = await createPayment(subject.api, {
      amount: await acceptedAmount(ctx, 'USD', '33.30'),
      currency: 'USD',
      externalId,
      expiresAt: new Date(now + LIFETIME_MS).toISOString(),
    });
    ctx.requireStatus(created, 201, 'PAY-STATE-ACTIVE-TO-EXPIRED', 'Setup: create');
    const id = created.payment.id;
    const expiresAt = Date.parse(String(created.payment.expiresAt));
    ctx.require(
      Number.isFinite(expiresAt),
      'PAY-STATE-ACTIVE-TO-EXPIRED',
      'Setup: no expiresAt',
      `expiresAt ${JSON.stringify(created.payment.expiresAt)}`,
      created.exchange,
    );

    await ctx.advanceClock(Math.max(0, expiresAt - MARGIN_MS - (await ctx.clock.refresh())));
    const before = await getPayment(subject.api, id);
    ctx.addCases();
    ctx.expect(
      (before.json as Payment | undefined)?.status === 'ACTIVE',
      'PAY-STATE-EXPIRES-AT-INSTANT',
      'The payment expired before expiresAt',
      `${MARGIN_MS / 1000} s before expiresAt the payment is ${(before.json as Payment | undefined)?.status}`,
      before.exchange,
    );

    await ctx.advanceClock(2 * MARGIN_MS);
    const after = await statusAfterSettling(ctx, subject.api, id, (status) => status === 'EXPIRED');
    ctx.addCases();
    ctx.require(
      (after.json as Payment | undefined)?.status === 'EXPIRED',
      'PAY-STATE-ACTIVE-TO-EXPIRED',
      'The payment did not expire at expiresAt',
      `${MARGIN_MS / 1000} s after expiresAt the payment is ${(after.json as Payment | undefined)?.status}`,
      after.exchange,
    );
    // EXPIRED, and reached by passing expiresAt without completion only: the state means what the spec says.
    ctx.judged('PAY-STATE-MEANING-EXPIRED');

    const deliveries = await subject.endpoint.waitFor((d) => eventsOf(d, 'payment.expired', id).length > 0, ctx.options.webhookWaitMs);
    const expired = eventsOf(deliveries, 'payment.expired', id);
    ctx.addCases();
    if (
      ctx.expect(
        expired.length > 0,
        'WH-EVENT-PAYMENT-EXPIRED',
        'payment.expired not delivered',
        `received ${describeDeliveries(deliveries)}`,
      )
    ) {
      await ctx.clock.refresh();
      verifyDeliveries(ctx, subject, expired, () => 'WH-SIGN-HMAC');
      const body = expired[0]!.json as { data?: { paymentId?: string; externalId?: string | null } };
      ctx.expectDelivery(
        body.data?.paymentId === id && body.data?.externalId === externalId,
        'WH-EVENT-PAYMENT-EXPIRED',
        'payment.expired names another payment',
        `data ${JSON.stringify(body.data)}; expected paymentId ${id}, externalId ${externalId}`,
        expired[0]!,
        subject.secret,
      );
    }

    const again = await createPayment(subject.api, { amount: await acceptedAmount(ctx, 'USD', '12.00'), currency: 'USD', externalId });
    ctx.addCases();
    ctx.expect(
      again.status === 201,
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'externalId of an EXPIRED payment not reusable',
      () => `expected 201, got ${again.status}: ${again.text.slice(0, 200)}`,
      again.exchange,
    );
  },
});
