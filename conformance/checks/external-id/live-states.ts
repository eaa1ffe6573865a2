// Uniqueness holds while PROCESSING and SUCCESSFUL too; reuse is allowed after EXPIRED and FAILED.
import type { Payment } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { failAsCustomer, failableSellers, holdProcessing, requireCustomerPath } from '../../support/customer-path.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { expectConflict } from './conflict.ts';

async function fresh(ctx: CheckContext, requirement: string, externalId: string, expiresInMs?: number, failable = false) {
  const sellers = failable ? failableSellers(ctx) : undefined;
  const body = {
    amount: await usd(ctx),
    currency: 'USD',
    externalId,
    acceptedChains: [8453],
    acceptedTokens: ['USDC'],
    ...(sellers ? { sellers } : {}),
    ...(expiresInMs ? { expiresAt: new Date(ctx.clock.now() + expiresInMs).toISOString() } : {}),
  };
  const created = await createPayment(ctx.api, body);
  ctx.requireStatus(created, 201, requirement, 'Setup: create');
  return created.payment;
}

const usd = (ctx: CheckContext) => acceptedAmount(ctx, 'USD', '12.00');

export const uniqueWhileLive = defineCheck({
  id: 'external-id.unique-while-processing-or-successful',
  title: 'externalId stays taken while the payment is PROCESSING and after it is SUCCESSFUL',
  requirements: ['PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'ERR-409-EXTERNAL-ID', 'ERR-BODY-SHAPE'],
  level: 'documented',
  needs: [],
  tags: ['external-id', 'lifecycle'],
  // One page; it stops mining on Base while the payment is held PROCESSING.
  resources: { browserSlots: 1, pausesMining: true },
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    requireCustomerPath(ctx);
    const externalId = uniqueExternalId('live');
    const payment = await fresh(ctx, 'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', externalId);
    const held = await holdProcessing(ctx, ctx.api, payment, { chainId: 8453, token: 'USDC' });
    ctx.require(
      held.processing.status === 'PROCESSING',
      'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE',
      'Setup: the payment is not PROCESSING after the customer submitted',
      `status ${held.processing.status}`,
    );
    expectConflict(
      ctx,
      await createPayment(ctx.api, { amount: await usd(ctx), currency: 'USD', externalId }),
      'ERR-409-EXTERNAL-ID',
      'PROCESSING',
    );
    const settled = await held.release();
    ctx.require(
      settled.status === 'SUCCESSFUL',
      'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE',
      'Setup: the payment did not settle',
      `status ${settled.status}`,
    );
    expectConflict(
      ctx,
      await createPayment(ctx.api, { amount: await usd(ctx), currency: 'USD', externalId }),
      'ERR-409-EXTERNAL-ID',
      'SUCCESSFUL',
    );
    ctx.addCases(2);
  },
});

export const reuseAfterExpiryOrFailure = defineCheck({
  id: 'external-id.reuse-after-expiry-or-failure',
  title: 'The externalId of an EXPIRED (clock advanced) or FAILED payment can be used again',
  requirements: ['PAY-CREATE-EXTERNAL-ID-REUSABLE'],
  level: 'documented',
  needs: [],
  tags: ['external-id', 'lifecycle', 'clock'],
  resources: { exclusive: ['clock'], browserSlots: 1 },
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    requireCustomerPath(ctx);
    if (!ctx.canMoveClock) ctx.notExercised('no clock the suite can move');
    await ctx.clock.refresh();
    const failedId = uniqueExternalId('rf');
    const payment = await fresh(ctx, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', failedId, undefined, true);
    const failed = await failAsCustomer(ctx, ctx.api, payment);
    ctx.require(
      failed.status === 'FAILED',
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'Setup: the payment did not fail',
      `status ${failed.status}`,
    );
    const afterFail = await createPayment(ctx.api, { amount: await usd(ctx), currency: 'USD', externalId: failedId });
    ctx.expect(
      afterFail.status === 201,
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'externalId of a FAILED payment not reusable',
      () => `expected 201, got ${afterFail.status}: ${afterFail.text.slice(0, 200)}`,
      afterFail.exchange,
    );

    const expiredId = uniqueExternalId('re');
    const toExpire = await fresh(ctx, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', expiredId, 16 * 60_000);
    await ctx.advanceClock(17 * 60_000);
    await ctx.clock.refresh();
    // A clock moved from outside fires the target's timers asynchronously: look again for a short while.
    let state = await ctx.api.get(`/v1/payments/${toExpire.id}`);
    for (let i = 0; i < 50 && (state.json as Received<Payment> | undefined)?.status !== 'EXPIRED'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = await ctx.api.get(`/v1/payments/${toExpire.id}`);
    }
    ctx.require(
      (state.json as Received<Payment> | undefined)?.status === 'EXPIRED',
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'Setup: payment did not expire',
      () => `after advancing past expiresAt the payment is ${(state.json as Received<Payment> | undefined)?.status}`,
      state.exchange,
    );
    const afterExpiry = await createPayment(ctx.api, { amount: await usd(ctx), currency: 'USD', externalId: expiredId });
    ctx.expect(
      afterExpiry.status === 201,
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'externalId of an EXPIRED payment not reusable',
      () => `expected 201, got ${afterExpiry.status}: ${afterExpiry.text.slice(0, 200)}`,
      afterExpiry.exchange,
    );
    ctx.addCases(2);
  },
});
