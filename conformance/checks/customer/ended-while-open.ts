// Payments that end while the customer's page is open. Cancel: the customer has connected and picked a pair, the
// merchant cancels, the open page shows it cancelled and refuses to pay. Expiry: the suite moves the target's clock
// past expiresAt while the page is open; the page shows it expired and refuses to pay. The cancel case also checks
// that the page offers exactly the pairs the payment accepts.
import type { CheckContext } from '../../context.ts';
import { STEP_TIMEOUTS } from '../../customer/agent.ts';
import { pairName } from '../../customer/page-contract.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment, type Payment } from '../../support/payments.ts';
import { chainPairs, onPage, paymentWhen } from './browser-payment.ts';

export const cancelWhileOpen = defineCheck({
  id: 'customer.cancel-while-open',
  title: 'A payment cancelled while its page is open shows CANCELLED there and cannot be paid; the page offers only the accepted pairs',
  requirements: [
    'PAY-STATE-CANCELLED-URL-CLOSED',
    'CHAIN-PAIRS-ONLY-FROM-TABLE',
    'PAY-HOSTED-PAIR-CHOICE',
    'PAGE-FINAL-STATE',
    'PAGE-REFUSES-ENDED',
    'PAGE-CONNECT-WALLET',
    'PAGE-PAIR-CHOICE',
    'PAGE-PAY-ACTION',
  ],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser', 'lifecycle'],
  resources: { browserSlots: 1 },
  async run(ctx: CheckContext) {
    const { agent } = ctx.customer;
    const created = await createPayment(ctx.api, {
      amount: '42',
      currency: 'GBP',
      title: 'Conformance cancel',
      acceptedChains: [1, 137],
      acceptedTokens: ['USDT'],
    });
    ctx.requireStatus(created, 201, 'PAY-STATE-CANCELLED-URL-CLOSED', 'Setup: create');
    const pair = { chainId: 137, token: 'USDT' };
    await onPage(ctx, 'cancel while open', async () => {
      const session = await agent.open(String(created.payment.paymentUrl), `${ctx.check.id}-${created.payment.id.slice(0, 8)}`, {
        chainId: pair.chainId,
      });
      try {
        await session.connect();
        // Picking a pair first shows the page names pairs as the page contract says; only then does a pair missing
        // by that name mean the page does not offer it (the markup is not shown).
        await session.pick(pair.chainId, pair.token);
        ctx.judged('PAY-HOSTED-PAIR-CHOICE');
        // Only the accepted pairs of the chain table: Ethereum/USDT and Polygon/USDT.
        for (const candidate of chainPairs(ctx)) {
          const offered = (await session.pairControl(candidate.chainId, candidate.token).locator.count()) > 0;
          const accepted = candidate.token === 'USDT' && (candidate.chainId === 1 || candidate.chainId === 137);
          ctx.addCases();
          ctx.expect(
            offered === accepted,
            'CHAIN-PAIRS-ONLY-FROM-TABLE',
            accepted ? 'The page does not offer an accepted pair' : 'The page offers a pair the payment does not accept',
            `${candidate.chainId}/${candidate.token}: ${offered ? 'offered' : 'not offered'} (${String(pairName(agent.options.contract, agent.chainName(candidate.chainId), candidate.token))}); accepted chains [1, 137], tokens [USDT]`,
          );
        }
        ctx.require(
          await session.canPay(pair.chainId, pair.token),
          'PAGE-PAY-ACTION',
          'The pay action is not enabled after connecting and picking a pair',
          `query ${session.payControl().query}`,
        );
        const cancelled = await cancelPayment(ctx.api, created.payment.id);
        ctx.requireStatus(cancelled, 200, 'PAY-STATE-CANCELLED-URL-CLOSED', 'Setup: cancel');
        const end = await session.waitForEnd(STEP_TIMEOUTS.follow);
        ctx.addCases();
        ctx.expect(
          end.state === 'cancelled',
          'PAGE-FINAL-STATE',
          'The open page does not show the cancellation',
          `the page shows "${end.text}"`,
        );
        ctx.expect(
          !(await session.canPay(pair.chainId, pair.token)),
          'PAY-STATE-CANCELLED-URL-CLOSED',
          'The open page still lets the customer pay a cancelled payment',
          `after the cancel the pair and pay controls are still enabled; screenshot ${await session.screenshot('cancelled')}`,
        );
      } finally {
        await session.close();
      }
    });
    // A fresh load of the link refuses as well.
    await onPage(ctx, 'cancelled link', async () => {
      const session = await agent.open(String(created.payment.paymentUrl), `${ctx.check.id}-reload`, { chainId: pair.chainId });
      try {
        const end = await session.waitForEnd(STEP_TIMEOUTS.follow);
        ctx.addCases();
        ctx.expect(
          end.state === 'cancelled',
          'PAGE-FINAL-STATE',
          "A cancelled payment's page does not say it is cancelled",
          `the page shows "${end.text}"`,
        );
        ctx.expect(
          !(await session.canPay(pair.chainId, pair.token)),
          'PAGE-REFUSES-ENDED',
          "A cancelled payment's page offers to pay",
          `screenshot ${await session.screenshot('cancelled-reload')}`,
        );
      } finally {
        await session.close();
      }
    });
    const after = await paymentWhen(ctx, ctx.api, created.payment.id, () => true);
    ctx.expect(
      after.payment.status === 'CANCELLED' && after.payment.txHash === null,
      'PAY-STATE-CANCELLED-URL-CLOSED',
      'A cancelled payment was paid after all',
      `status ${after.payment.status}, txHash ${JSON.stringify(after.payment.txHash)}`,
      after.exchange,
    );
  },
});

export const expiryWhileOpen = defineCheck({
  id: 'customer.expiry-while-open',
  title: 'A payment that expires while its page is open shows EXPIRED there and cannot be paid',
  requirements: ['PAY-STATE-ACTIVE-TO-EXPIRED', 'PAGE-FINAL-STATE', 'PAGE-REFUSES-ENDED', 'PAGE-CONNECT-WALLET'],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser', 'lifecycle', 'clock'],
  resources: { exclusive: ['clock'], browserSlots: 1 },
  async run(ctx: CheckContext) {
    if (!ctx.canMoveClock) ctx.notExercised('no clock the suite can move (libfaketime did not reach the target)');
    const { agent } = ctx.customer;
    const now = await ctx.clock.refresh();
    const created = await createPayment(ctx.api, {
      amount: '20',
      currency: 'USD',
      title: 'Conformance expiry',
      expiresAt: new Date(now + 16 * 60_000).toISOString(),
    });
    ctx.requireStatus(created, 201, 'PAY-STATE-ACTIVE-TO-EXPIRED', 'Setup: create');
    const expiresAt = Date.parse(String(created.payment.expiresAt));
    const pair = { chainId: 8453, token: 'USDC' };
    await onPage(ctx, 'expiry while open', async () => {
      const session = await agent.open(String(created.payment.paymentUrl), `${ctx.check.id}-${created.payment.id.slice(0, 8)}`, {
        chainId: pair.chainId,
      });
      try {
        await session.connect();
        await ctx.advanceClock(Math.max(0, expiresAt - (await ctx.clock.refresh())) + 60_000);
        const end = await session.waitForEnd(STEP_TIMEOUTS.follow);
        ctx.addCases();
        ctx.expect(end.state === 'expired', 'PAGE-FINAL-STATE', 'The open page does not show the expiry', `the page shows "${end.text}"`);
        ctx.expect(
          !(await session.canPay(pair.chainId, pair.token)),
          'PAGE-REFUSES-ENDED',
          'The open page still lets the customer pay an expired payment',
          `screenshot ${await session.screenshot('expired')}`,
        );
      } finally {
        await session.close();
      }
    });
    const after = await paymentWhen(ctx, ctx.api, created.payment.id, (p: Payment) => p.status === 'EXPIRED');
    ctx.expect(
      after.payment.status === 'EXPIRED',
      'PAY-STATE-ACTIVE-TO-EXPIRED',
      'The payment did not expire while its page was open',
      `status ${after.payment.status}`,
      after.exchange,
    );
  },
});
