// A marketplace payment split across 5 sellers (addresses the suite made up), paid through the hosted page: one
// signature, one transaction, and every seller, the merchant and the fee collector receive exactly their share on chain.
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment } from '../../support/payments.ts';
import { describeSigned, payInBrowser, transactionsSigned, verifyOnChain } from './browser-payment.ts';

export const splitFiveSellers = defineCheck({
  id: 'customer.split-five-sellers',
  title: 'A 5-seller split paid through the hosted page pays every seller in one on-chain transaction',
  requirements: [
    'PAY-SELLERS-ONE-TRANSACTION',
    'PAY-HOSTED-ONE-TRANSACTION',
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
    'PAY-FIELD-TX-HASH',
    'PAY-SETTLEMENT-NON-CUSTODIAL',
    'PAGE-FINAL-STATE',
    'PAGE-CONNECT-WALLET',
    'PAGE-PAIR-CHOICE',
    'PAGE-PAY-ACTION',
  ],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser', 'sellers', 'onchain'],
  resources: { browserSlots: 1 },
  async run(ctx: CheckContext) {
    const sellers: Address[] = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()).address);
    const amounts = ['40', '30.50', '20.25', '10', '5.55'];
    const created = await createPayment(ctx.api, {
      amount: '150',
      currency: 'EUR',
      title: 'Conformance 5-seller basket',
      sellers: sellers.map((address, i) => ({ address, amount: amounts[i]! })),
    });
    ctx.requireStatus(created, 201, 'PAY-SELLERS-ONE-TRANSACTION', 'Setup: create a 5-seller payment');
    const pair = { chainId: 42161, token: 'USDT' };
    const { result, payment, response } = await payInBrowser(ctx, ctx.api, created.payment, pair);
    ctx.addCases();
    ctx.require(
      payment.status === 'SUCCESSFUL' && typeof payment.txHash === 'string',
      'PAY-SELLERS-ONE-TRANSACTION',
      'The 5-seller payment did not succeed through the page',
      `GET says ${payment.status}, txHash ${JSON.stringify(payment.txHash)}; the page ${result.end ? `ended with "${result.end.text}"` : 'showed no end state'}; screenshot ${result.screenshot}`,
      response.exchange,
    );
    const transactions = transactionsSigned(result);
    ctx.expect(
      transactions.length === 1,
      'PAY-HOSTED-ONE-TRANSACTION',
      'The customer was not asked to sign exactly one transaction for 5 sellers',
      `transactions signed or sent: ${describeSigned(transactions)}`,
    );
    await verifyOnChain(ctx, ctx.api, payment, sellers, {
      tx: 'PAY-FIELD-TX-HASH',
      amounts: 'PAY-SETTLEMENT-NON-CUSTODIAL',
      sellers: 'PAY-SELLERS-ONE-TRANSACTION',
    });
  },
});
