// Payments that end while the customer's page is open. Cancel: the customer has connected and picked a pair, the
// merchant cancels, the open page shows it cancelled and refuses to pay. Expiry: the suite moves the target's clock
// past expiresAt while the page is open; the page shows it expired and refuses to pay. The cancel case also reads
// every pair control the page offers, over every chain of the spec's table and both tokens (Base · USDT included): one
// outside the table or outside the payment's accepted set is a documented failure. The wording of an end state is
// assumed (PAGE-FINAL-STATE): a page that never shows it is a finding of its own, and the check still asks its
// documented question, whether the page lets the customer pay, and the API whether the payment was paid.
import { CHAINS, TOKENS, isPairSupported } from '@stablepay/contract/chain-table';
import type { CheckContext } from '../../context.ts';
import { STEP_TIMEOUTS } from '../../customer/agent.ts';
import { PageStepError } from '../../customer/agent-errors.ts';
import type { CustomerSession } from '../../customer/customer-session.ts';
import { pairName } from '../../customer/page-contract.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment, type Payment } from '../../support/payments.ts';
import { onPage, paymentWhen } from './browser-payment.ts';

type EndState = Awaited<ReturnType<CustomerSession['waitForEnd']>>['state'];

/**
 * The end state the page shows, judged against `expected` (PAGE-FINAL-STATE, assumed wording). A page that shows none
 * is that finding only: the caller goes on to its documented assertion instead of stopping here.
 */
async function endStateShown(ctx: CheckContext, session: CustomerSession, expected: EndState, title: string): Promise<void> {
  ctx.addCases();
  try {
    const end = await session.waitForEnd(STEP_TIMEOUTS.follow);
    ctx.expect(end.state === expected, 'PAGE-FINAL-STATE', title, `the page shows "${end.text}"`);
  } catch (error) {
    if (!(error instanceof PageStepError)) throw error;
    ctx.fail('PAGE-FINAL-STATE', title, `${error.message}; the check goes on to ask whether the page still lets the customer pay`);
  }
}

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
        // Every chain of the table with both tokens: only the accepted pairs of the table, Ethereum/USDT and
        // Polygon/USDT, may be offered; Base/USDT and BNB Smart Chain/USDC are not in the table at all.
        for (const chain of CHAINS)
          for (const token of TOKENS) {
            const offered = (await session.pairControl(chain.chainId, token).locator.count()) > 0;
            const inTable = isPairSupported(chain.chainId, token);
            const accepted = inTable && token === 'USDT' && (chain.chainId === 1 || chain.chainId === 137);
            ctx.addCases();
            ctx.expect(
              offered === accepted,
              'CHAIN-PAIRS-ONLY-FROM-TABLE',
              accepted
                ? 'The page does not offer an accepted pair'
                : inTable
                  ? 'The page offers a pair the payment does not accept'
                  : "The page offers a pair outside the spec's chain table",
              `${chain.chainId}/${token}: ${offered ? 'offered' : 'not offered'} (${String(pairName(agent.options.contract, agent.chainName(chain.chainId), token))}); ${inTable ? 'in the table' : `not in the table (${chain.name} carries ${Object.keys(chain.tokens).join(', ')})`}; accepted chains [1, 137], tokens [USDT]`,
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
        await endStateShown(ctx, session, 'cancelled', 'The open page does not show the cancellation');
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
        await endStateShown(ctx, session, 'cancelled', "A cancelled payment's page does not say it is cancelled");
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
        await endStateShown(ctx, session, 'expired', 'The open page does not show the expiry');
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
