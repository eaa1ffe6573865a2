// One payment down each path (ACTIVE -> PROCESSING -> SUCCESSFUL, -> FAILED, -> EXPIRED): the
// retrieve view sets chainId/token/rate/token amounts after initiation, txHash/paidAt/gasActual
// after confirmation, error only when FAILED; terminal payments refuse cancel and stay as they are.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { VIEW_REQUIREMENTS, viewViolations } from '../../model/view-rules.ts';
import { cancelPayment, createPayment, getPayment, type PaymentStatus } from '../../support/payments.ts';

async function expectState(ctx: CheckContext, id: string, status: PaymentStatus, requirement: string, pair?: { chainId: number; token: string }): Promise<void> {
  const got = await getPayment(ctx.api, id);
  ctx.require(got.payment?.status === status, requirement, `Payment is not ${status}`, () => `GET shows ${got.payment?.status ?? got.status}`, got.exchange);
  for (const v of viewViolations(got.payment, pair)) ctx.fail(v.requirement, `Retrieve view of a ${status} payment is wrong`, v.message, got.exchange);
  ctx.addCases();
}

export const stateFields = defineCheck({
  id: 'lifecycle.state-fields',
  title: 'Retrieve-view fields are set per state, and terminal states refuse cancel and never change',
  requirements: [...VIEW_REQUIREMENTS, 'PAY-STATE-ACTIVE-TO-PROCESSING', 'PAY-STATE-PROCESSING-TO-SUCCESSFUL', 'PAY-STATE-PROCESSING-TO-FAILED', 'PAY-STATE-ACTIVE-TO-EXPIRED', 'PAY-CANCEL-ONLY-ACTIVE', 'PAY-STATE-TERMINAL-FINAL', 'PAY-STATE-PROCESSING-NO-EXPIRY'],
  level: 'documented',
  needs: ['control'],
  tags: ['lifecycle', 'clock'],
  async run(ctx: CheckContext) {
    await ctx.clock.refresh();
    const make = async () => {
      const created = await createPayment(ctx.api, { amount: '250.00', currency: 'USD', expiresAt: new Date(ctx.clock.now() + 20 * 60_000).toISOString() });
      ctx.requireStatus(created, 201, 'PAY-STATE-ACTIVE-TO-PROCESSING', 'Setup: create');
      return created.payment.id;
    };
    const paid = await make();
    const failed = await make();
    const expiring = await make();
    const processing = await make();
    await expectState(ctx, paid, 'ACTIVE', 'PAY-STATE-ACTIVE-TO-PROCESSING');
    const pair = { chainId: 137, token: 'USDT' };
    for (const id of [paid, failed, processing]) await ctx.control.submit(id, pair.chainId, pair.token);
    await expectState(ctx, paid, 'PROCESSING', 'PAY-STATE-ACTIVE-TO-PROCESSING', pair);
    const busy = await cancelPayment(ctx.api, processing);
    ctx.expect(busy.status === 400, 'PAY-CANCEL-ONLY-ACTIVE', 'Cancel of a PROCESSING payment is not 400', () => `got ${busy.status}: ${busy.text.slice(0, 200)}`, busy.exchange);
    await ctx.control.confirm(paid);
    await expectState(ctx, paid, 'SUCCESSFUL', 'PAY-STATE-PROCESSING-TO-SUCCESSFUL', pair);
    await ctx.control.fail(failed, { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'conformance revert' });
    await expectState(ctx, failed, 'FAILED', 'PAY-STATE-PROCESSING-TO-FAILED', pair);
    await ctx.control.advance(21 * 60_000);
    await ctx.clock.refresh();
    await expectState(ctx, expiring, 'EXPIRED', 'PAY-STATE-ACTIVE-TO-EXPIRED');
    await expectState(ctx, processing, 'PROCESSING', 'PAY-STATE-PROCESSING-NO-EXPIRY', pair);
    // Terminal states: cancel is 400, further transitions are refused, time changes nothing.
    for (const [id, status] of [[paid, 'SUCCESSFUL'], [failed, 'FAILED'], [expiring, 'EXPIRED']] as const) {
      const refused = await cancelPayment(ctx.api, id);
      ctx.expect(refused.status === 400, 'PAY-CANCEL-ONLY-ACTIVE', `Cancel of a ${status} payment is not 400`, () => `got ${refused.status}: ${refused.text.slice(0, 200)}`, refused.exchange);
      await ctx.control.submitRaw(id, pair.chainId, pair.token);
      await ctx.control.confirmRaw(id);
      await ctx.control.failRaw(id, {});
    }
    await ctx.control.advance(2 * 86_400_000);
    await ctx.clock.refresh();
    await expectState(ctx, paid, 'SUCCESSFUL', 'PAY-STATE-TERMINAL-FINAL', pair);
    await expectState(ctx, failed, 'FAILED', 'PAY-STATE-TERMINAL-FINAL', pair);
    await expectState(ctx, expiring, 'EXPIRED', 'PAY-STATE-TERMINAL-FINAL');
  },
});
