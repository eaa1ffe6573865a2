// SUCCESSFUL through the hosted page on every (chain, token) pair of the chain table: one link for every pair, the
// customer connects a wallet the suite holds, picks the pair, signs once, and the page shows the payment complete
// with its transaction hash. The API then says SUCCESSFUL with the pair, txHash and paidAt; the transaction is real
// and moved the API's amounts to the merchant and the fee collector; payment.processing and payment.completed arrive
// signed (with a receiver); the ledger holds one record per settlement (when the implementation has it).
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, uniqueExternalId, type Payment } from '../../support/payments.ts';
import {
  SUBJECT_PREMISES,
  describeDeliveries,
  eventsOf,
  verifyDeliveries,
  webhookSubject,
  type WebhookSubject,
} from '../webhooks/subject.ts';
import { allPayments, chainPairs, describeSigned, payInBrowser, transactionsSigned, verifyOnChain } from './browser-payment.ts';

export const payEachPair = defineCheck({
  id: 'customer.pay-each-pair',
  title: 'A customer pays through the hosted page on every chain/token pair; the chain and the API agree',
  requirements: [
    'PAGE-LOADS',
    'PAGE-CONNECT-WALLET',
    'PAGE-PAIR-CHOICE',
    'PAGE-PAY-ACTION',
    'PAGE-FINAL-STATE',
    'PAGE-TX-HASH-SHOWN',
    'PAY-URL-IN-CREATE',
    'PAY-ONE-LINK-ALL-CHAINS',
    'PAY-HOSTED-SIGN-IN',
    'PAY-HOSTED-PAIR-CHOICE',
    'PAY-HOSTED-ONE-TRANSACTION',
    'PAY-TOKENS-USDC-USDT',
    'CHAIN-ETHEREUM-TOKENS',
    'CHAIN-ARBITRUM-TOKENS',
    'CHAIN-BASE-TOKENS',
    'CHAIN-POLYGON-TOKENS',
    'CHAIN-BNB-TOKENS',
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
    'PAY-STATE-MEANING-SUCCESSFUL',
    'PAY-FIELD-CHAIN-ID',
    'PAY-FIELD-TOKEN',
    'PAY-FIELD-TX-HASH',
    'PAY-FIELD-PAID-AT',
    'PAY-FIELD-GAS-ACTUAL',
    'PAY-CUSTOMER-PAYS-GAS',
    'PAY-GET-RESPONSE-200',
    'PAY-SETTLEMENT-NON-CUSTODIAL',
    'WH-EVENT-PAYMENT-PROCESSING',
    'WH-EVENT-PAYMENT-COMPLETED',
    'WH-SIGN-HMAC',
    'WH-CONFIG-ENDPOINTS',
    'TXN-ONE-PER-SUCCESSFUL',
  ],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser', 'lifecycle', 'onchain'],
  resources: { browserSlots: 'all' },
  premises: [...SUBJECT_PREMISES],
  async run(ctx: CheckContext) {
    const subject: WebhookSubject | null = ctx.services.receiver ? await webhookSubject(ctx) : null;
    const api = subject?.api ?? ctx.api;
    const pairs = chainPairs(ctx);
    const chainRequirement: Record<number, string> = {
      1: 'CHAIN-ETHEREUM-TOKENS',
      42161: 'CHAIN-ARBITRUM-TOKENS',
      8453: 'CHAIN-BASE-TOKENS',
      137: 'CHAIN-POLYGON-TOKENS',
      56: 'CHAIN-BNB-TOKENS',
    };
    const settled: Payment[] = [];
    await allPayments(
      ctx,
      pairs.map(async (pair, i) => {
        const created = await createPayment(api, {
          amount: `${12 + i}.34`,
          currency: 'USD',
          title: `Conformance ${pair.chainId}/${pair.token}`,
          externalId: uniqueExternalId('pair'),
        });
        ctx.requireStatus(created, 201, 'PAY-URL-IN-CREATE', 'Setup: create');
        ctx.require(
          typeof created.payment.paymentUrl === 'string',
          'PAY-URL-IN-CREATE',
          'No paymentUrl in the create response',
          JSON.stringify(created.payment),
          created.exchange,
        );
        const { result, payment, response } = await payInBrowser(ctx, api, created.payment, pair);
        ctx.addCases();
        const label = `${pair.chainId}/${pair.token} (payment ${created.payment.id})`;
        const pageEnd = result.end ? `the page ended with "${result.end.text}"` : 'the page showed no end state';
        ctx.expect(
          payment.status === 'SUCCESSFUL',
          chainRequirement[pair.chainId] ?? 'PAY-HOSTED-PAIR-CHOICE',
          `Paying on ${pair.chainId}/${pair.token} did not succeed`,
          `GET says ${payment.status} (error ${JSON.stringify(payment.error)}) and ${pageEnd} for ${label}; screenshot ${result.screenshot}`,
          response.exchange,
        );
        ctx.expect(
          result.wallet.log.some(
            (e) => e.method === 'eth_requestAccounts' || e.method === 'eth_accounts' || e.method === 'wallet_requestPermissions',
          ),
          'PAY-HOSTED-SIGN-IN',
          'The page never asked the wallet for its accounts',
          label,
        );
        const transactions = transactionsSigned(result);
        ctx.expect(
          transactions.length === 1,
          'PAY-HOSTED-ONE-TRANSACTION',
          'The customer was not asked to sign exactly one transaction',
          `${label}: transactions signed or sent: ${describeSigned(transactions)}`,
        );
        if (payment.status !== 'SUCCESSFUL') return;

        const after = { payment, exchange: response.exchange };
        ctx.require(
          response.status === 200,
          'PAY-GET-RESPONSE-200',
          'Retrieve of a paid payment failed',
          `answered ${response.status}`,
          after.exchange,
        );
        ctx.expect(
          payment.chainId === pair.chainId,
          'PAY-FIELD-CHAIN-ID',
          'chainId is not the chain the customer paid on',
          `${label}: chainId ${JSON.stringify(payment.chainId)}`,
          after.exchange,
        );
        ctx.expect(
          payment.token === pair.token,
          'PAY-FIELD-TOKEN',
          'token is not the token the customer paid with',
          `${label}: token ${JSON.stringify(payment.token)}`,
          after.exchange,
        );
        ctx.expect(
          typeof payment.paidAt === 'string',
          'PAY-FIELD-PAID-AT',
          'paidAt is not set on a SUCCESSFUL payment',
          `${label}: paidAt ${JSON.stringify(payment.paidAt)}`,
          after.exchange,
        );
        ctx.expect(
          typeof payment.gasActual === 'string',
          'PAY-FIELD-GAS-ACTUAL',
          'gasActual is not set after confirmation',
          `${label}: gasActual ${JSON.stringify(payment.gasActual)}`,
          after.exchange,
        );
        // The customer pays the gas: a positive gasActual in the paying token, while the merchant receives its whole
        // merchantFeeToken on chain (verifyOnChain below).
        ctx.expect(
          typeof payment.gasActual === 'string' && Number(payment.gasActual) > 0,
          'PAY-CUSTOMER-PAYS-GAS',
          'No gas charged to the customer',
          `${label}: gasActual ${JSON.stringify(payment.gasActual)}`,
          after.exchange,
        );
        if (
          !ctx.expect(
            typeof payment.txHash === 'string',
            'PAY-FIELD-TX-HASH',
            'txHash is not set on a SUCCESSFUL payment',
            `${label}: txHash ${JSON.stringify(payment.txHash)}`,
            after.exchange,
          )
        )
          return;
        ctx.expect(
          result.pageText.toLowerCase().includes(String(payment.txHash).toLowerCase()),
          'PAGE-TX-HASH-SHOWN',
          'The page does not show the transaction hash after success',
          `${label}: ${payment.txHash} not in the page's text`,
        );
        await verifyOnChain(ctx, api, payment, [], {
          tx: 'PAY-FIELD-TX-HASH',
          amounts: 'PAY-SETTLEMENT-NON-CUSTODIAL',
          sellers: 'PAY-SETTLEMENT-NON-CUSTODIAL',
        });
        settled.push(payment);
        // One default link, this pair picked on the page, paid in a supported token, PROCESSING then SUCCESSFUL.
        ctx.judged(
          'PAY-ONE-LINK-ALL-CHAINS',
          'PAY-HOSTED-PAIR-CHOICE',
          'PAY-TOKENS-USDC-USDT',
          'PAY-STATE-ACTIVE-TO-PROCESSING',
          'PAY-STATE-MEANING-SUCCESSFUL',
        );
      }),
    );

    if (subject) {
      for (const payment of settled) {
        const deliveries = await subject.endpoint.waitFor(
          (d) => eventsOf(d, 'payment.completed', payment.id).length > 0 && eventsOf(d, 'payment.processing', payment.id).length > 0,
          ctx.options.webhookWaitMs,
        );
        const processing = eventsOf(deliveries, 'payment.processing', payment.id);
        const completed = eventsOf(deliveries, 'payment.completed', payment.id);
        ctx.addCases();
        ctx.expect(
          processing.length > 0,
          'WH-EVENT-PAYMENT-PROCESSING',
          'payment.processing not delivered for a payment the customer paid',
          `payment ${payment.id}: ${describeDeliveries(deliveries)}`,
        );
        ctx.expect(
          completed.length > 0,
          'WH-EVENT-PAYMENT-COMPLETED',
          'payment.completed not delivered for a payment the customer paid',
          `payment ${payment.id}: ${describeDeliveries(deliveries)}`,
        );
        await ctx.clock.refresh();
        verifyDeliveries(ctx, subject, [...processing, ...completed], () => 'WH-SIGN-HMAC');
      }
    }

    // One ledger record per settlement (the ledger is assumed: an implementation without it is judged on the rest).
    const ledger = await api.get('/v1/transactions', { limit: 100 });
    if (ledger.status === 200) {
      const records = ((ledger.json as { data?: { paymentId?: string }[] }).data ?? []).map((r) => r.paymentId);
      for (const payment of settled) {
        ctx.addCases();
        ctx.expect(
          records.filter((id) => id === payment.id).length === 1,
          'TXN-ONE-PER-SUCCESSFUL',
          'A payment settled through the page does not have exactly one ledger record',
          `payment ${payment.id}: ${records.filter((id) => id === payment.id).length} records`,
          ledger.exchange,
        );
      }
    }
  },
});
