// Uniqueness holds while PROCESSING and SUCCESSFUL too; reuse is allowed after EXPIRED and FAILED.
import type { Payment } from '../../../contract/types.ts';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';
import type { Received } from '../../support/received.ts';
import { expectConflict } from './conflict.ts';

async function fresh(ctx: CheckContext, requirement: string, externalId: string, expiresInMs?: number): Promise<string> {
  const body = { amount: '12.00', currency: 'USD', externalId, acceptedChains: [8453], acceptedTokens: ['USDC'], ...(expiresInMs ? { expiresAt: new Date(ctx.clock.now() + expiresInMs).toISOString() } : {}) };
  const created = await createPayment(ctx.api, body);
  ctx.requireStatus(created, 201, requirement, 'Setup: create');
  return created.payment.id;
}

export const uniqueWhileLive = defineCheck({
  id: 'external-id.unique-while-processing-or-successful',
  title: 'externalId stays taken while the payment is PROCESSING and after it is SUCCESSFUL',
  requirements: ['PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'ERR-409-EXTERNAL-ID'],
  level: 'documented',
  needs: ['control'],
  tags: ['external-id', 'lifecycle'],
  async run(ctx: CheckContext) {
    const externalId = uniqueExternalId('live');
    const id = await fresh(ctx, 'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', externalId);
    await ctx.control.submit(id, 8453, 'USDC');
    expectConflict(ctx, await createPayment(ctx.api, { amount: '12.00', currency: 'USD', externalId }), 'ERR-409-EXTERNAL-ID', 'PROCESSING');
    await ctx.control.confirm(id);
    expectConflict(ctx, await createPayment(ctx.api, { amount: '12.00', currency: 'USD', externalId }), 'ERR-409-EXTERNAL-ID', 'SUCCESSFUL');
    ctx.addCases(2);
  },
});

export const reuseAfterExpiryOrFailure = defineCheck({
  id: 'external-id.reuse-after-expiry-or-failure',
  title: 'The externalId of an EXPIRED (clock advanced) or FAILED payment can be used again',
  requirements: ['PAY-CREATE-EXTERNAL-ID-REUSABLE'],
  level: 'documented',
  needs: ['control'],
  tags: ['external-id', 'lifecycle', 'clock'],
  async run(ctx: CheckContext) {
    await ctx.clock.refresh();
    const failedId = uniqueExternalId('rf');
    const id = await fresh(ctx, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', failedId);
    await ctx.control.submit(id, 8453, 'USDC');
    await ctx.control.fail(id, { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'conformance: reverted' });
    const afterFail = await createPayment(ctx.api, { amount: '12.00', currency: 'USD', externalId: failedId });
    ctx.expect(afterFail.status === 201, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', 'externalId of a FAILED payment not reusable', () => `expected 201, got ${afterFail.status}: ${afterFail.text.slice(0, 200)}`, afterFail.exchange);

    const expiredId = uniqueExternalId('re');
    const toExpire = await fresh(ctx, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', expiredId, 16 * 60_000);
    await ctx.control.advance(17 * 60_000);
    await ctx.clock.refresh();
    const state = await ctx.api.get(`/v1/payments/${toExpire}`);
    ctx.require((state.json as Received<Payment> | undefined)?.status === 'EXPIRED', 'PAY-CREATE-EXTERNAL-ID-REUSABLE', 'Setup: payment did not expire', () => `after advancing past expiresAt the payment is ${(state.json as Received<Payment> | undefined)?.status}`, state.exchange);
    const afterExpiry = await createPayment(ctx.api, { amount: '12.00', currency: 'USD', externalId: expiredId });
    ctx.expect(afterExpiry.status === 201, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', 'externalId of an EXPIRED payment not reusable', () => `expected 201, got ${afterExpiry.status}: ${afterExpiry.text.slice(0, 200)}`, afterExpiry.exchange);
    ctx.addCases(2);
  },
});
