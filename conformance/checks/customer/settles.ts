// The first payment of a black-box run that goes through the customer: one payment paid through the hosted page,
// followed with GET /v1/payments/{id} from the pay click. It must become PROCESSING (when the polling catches it) and
// then SUCCESSFUL within the settle time-out, forward only, with the chain and token the customer chose. It runs
// before every other check that pays as the customer, so a checkout that cannot take money fails here, once, with the
// wallet log and the screenshots, and the run's other customer payments are reported as not attempted because of it.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, STATUSES } from '../../support/payments.ts';
import { chainPairs, describeSigned, payInBrowser, transactionsSigned } from './browser-payment.ts';

export const customerSettles = defineCheck({
  id: 'customer.settles',
  title: 'A payment the customer pays through the hosted page becomes PROCESSING and then SUCCESSFUL in GET /v1/payments/{id}',
  requirements: [
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
    'PAY-STATE-FORWARD-ONLY',
    'PAY-COMPLETION-POLL-OR-WEBHOOK',
    'PAY-GET-POLLABLE',
    'PAY-HOSTED-ONE-TRANSACTION',
    'PAGE-LOADS',
    'PAGE-CONNECT-WALLET',
    'PAGE-PAIR-CHOICE',
    'PAGE-PAY-ACTION',
    'PAGE-FINAL-STATE',
  ],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser', 'lifecycle'],
  // Every slot and first of the run: no other payment goes through a page before this one has shown it can take money.
  resources: { browserSlots: 'all', browserFirst: true },
  async run(ctx: CheckContext) {
    const pairs = chainPairs(ctx);
    const pair = pairs.find((p) => p.chainId === 8453 && p.token === 'USDC') ?? pairs[0];
    if (!pair) ctx.notExercised('the chains file offers no chain/token pair');
    const created = await createPayment(ctx.api, { amount: '10.00', currency: 'USD', title: 'Conformance: the customer pays' });
    ctx.requireStatus(created, 201, 'PAY-STATE-ACTIVE-TO-PROCESSING', 'Setup: create');
    const { result, payment, response, statuses } = await payInBrowser(ctx, ctx.api, created.payment, pair);
    ctx.addCases();
    const label = `payment ${payment.id} on ${pair.chainId}/${pair.token}`;
    ctx.require(
      payment.status === 'SUCCESSFUL',
      'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
      'A payment the customer paid did not become SUCCESSFUL',
      `${label}: GET showed ${statuses.join(' then ')} (error ${JSON.stringify(payment.error)})`,
      response.exchange,
    );
    const order = statuses.map((s) => STATUSES.indexOf(s as never));
    ctx.expect(
      order.every((rank, i) => i === 0 || rank >= order[i - 1]!) && !statuses.includes('FAILED'),
      'PAY-STATE-FORWARD-ONLY',
      'The payment went back to an earlier state while the customer paid',
      `${label}: GET showed ${statuses.join(' then ')}`,
    );
    ctx.expect(
      payment.chainId === pair.chainId && payment.token === pair.token,
      'PAY-STATE-ACTIVE-TO-PROCESSING',
      'The paid payment does not carry the chain and token the customer chose',
      `${label}: chainId ${JSON.stringify(payment.chainId)}, token ${JSON.stringify(payment.token)}`,
      response.exchange,
    );
    ctx.expect(
      typeof payment.txHash === 'string' && typeof payment.paidAt === 'string',
      'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
      'A SUCCESSFUL payment lacks txHash or paidAt',
      `${label}: txHash ${JSON.stringify(payment.txHash)}, paidAt ${JSON.stringify(payment.paidAt)}`,
      response.exchange,
    );
    const transactions = transactionsSigned(result);
    ctx.expect(
      transactions.length === 1,
      'PAY-HOSTED-ONE-TRANSACTION',
      'The customer was not asked to sign exactly one transaction',
      `${label}: transactions signed or sent: ${describeSigned(transactions)}`,
    );
  },
});
