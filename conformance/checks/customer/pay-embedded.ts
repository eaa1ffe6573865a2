// The link embedded in an iframe of another origin (a merchant's checkout page): the customer connects, picks a pair
// and pays inside the frame exactly as on the page itself, and the payment settles.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment } from '../../support/payments.ts';
import { describeSigned, payInBrowser, transactionsSigned } from './browser-payment.ts';

export const payEmbedded = defineCheck({
  id: 'customer.pay-embedded',
  title: 'The payment page embedded in an iframe of another origin takes the payment as on its own',
  requirements: [
    'PAY-URL-EMBEDDABLE',
    'PAY-HOSTED-ONE-TRANSACTION',
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
    'PAGE-LOADS',
    'PAGE-CONNECT-WALLET',
    'PAGE-PAIR-CHOICE',
    'PAGE-PAY-ACTION',
    'PAGE-FINAL-STATE',
  ],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser'],
  resources: { browserSlots: 1 },
  async run(ctx: CheckContext) {
    const created = await createPayment(ctx.api, { amount: '18.50', currency: 'EUR', title: 'Conformance embedded checkout' });
    ctx.requireStatus(created, 201, 'PAY-URL-EMBEDDABLE', 'Setup: create');
    const pair = { chainId: 137, token: 'USDC' };
    const { result, payment, response } = await payInBrowser(ctx, ctx.api, created.payment, pair, { embed: true });
    ctx.addCases();
    ctx.expect(
      payment.status === 'SUCCESSFUL' && payment.chainId === pair.chainId,
      'PAY-URL-EMBEDDABLE',
      'The payment made inside an iframe is not SUCCESSFUL on its chain',
      `GET says ${payment.status}, chainId ${payment.chainId}; the framed page ${result.end ? `ended with "${result.end.text}"` : 'showed no end state'}; screenshot ${result.screenshot}`,
      response.exchange,
    );
    const transactions = transactionsSigned(result);
    ctx.expect(
      transactions.length === 1,
      'PAY-HOSTED-ONE-TRANSACTION',
      'The framed page did not ask for exactly one transaction',
      `transactions signed or sent: ${describeSigned(transactions)}`,
    );
  },
});
