// FAILED through a revert the suite causes on its own chain: the customer pays a one-seller payment in USDC; once the
// page has prepared the operation and asks the wallet to sign, the suite blacklists the seller and the wallet's
// account with the chains file's USDC blacklister key, so the transfer reverts on chain. The payment must end FAILED
// with error {code, source, message}, the page must say so, payment.failed must arrive, and the externalId is free.
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { CheckContext } from '../../context.ts';
import { blacklistUsdc } from '../../customer/on-chain.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';
import {
  SUBJECT_PREMISES,
  describeDeliveries,
  eventsOf,
  verifyDeliveries,
  webhookSubject,
  type WebhookSubject,
} from '../webhooks/subject.ts';
import { payInBrowser } from './browser-payment.ts';

const SOURCES = ['chain', 'bundler', 'service'];

export const failedByRevert = defineCheck({
  id: 'customer.failed-by-revert',
  title: 'A payment whose transaction reverts on chain ends FAILED with its error, on the page and in payment.failed',
  requirements: [
    'PAY-STATE-PROCESSING-TO-FAILED',
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-MEANING-FAILED',
    'PAY-FIELD-ERROR',
    'PAY-ERROR-OBJECT-SHAPE',
    'PAY-ERROR-SOURCE-VALUES',
    'WH-EVENT-PAYMENT-FAILED',
    'WH-SIGN-HMAC',
    'WH-CONFIG-ENDPOINTS',
    'PAY-CREATE-EXTERNAL-ID-REUSABLE',
    'PAGE-FINAL-STATE',
    'PAGE-CONNECT-WALLET',
    'PAGE-PAIR-CHOICE',
    'PAGE-PAY-ACTION',
  ],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser', 'lifecycle', 'onchain'],
  resources: { browserSlots: 1 },
  premises: [...SUBJECT_PREMISES],
  async run(ctx: CheckContext) {
    const { chains } = ctx.customer;
    const pair = { chainId: 8453, token: 'USDC' };
    if (!chains.usdcRoles?.blacklister || chains.chains.find((c) => c.chainId === pair.chainId)?.forkOf)
      ctx.notExercised('the suite holds no USDC blacklister key on Base (a forked chain)');
    const subject: WebhookSubject | null = ctx.services.receiver ? await webhookSubject(ctx) : null;
    const api = subject?.api ?? ctx.api;
    const seller: Address = privateKeyToAccount(generatePrivateKey()).address;
    const externalId = uniqueExternalId('fail');
    const created = await createPayment(api, {
      amount: '25',
      currency: 'USD',
      title: 'Conformance revert',
      externalId,
      sellers: [{ address: seller, amount: '5' }],
    });
    ctx.requireStatus(created, 201, 'PAY-STATE-PROCESSING-TO-FAILED', 'Setup: create');
    const id = created.payment.id;
    const privateKey = generatePrivateKey();
    const payer = privateKeyToAccount(privateKey).address;
    let blacklisted = false;
    // A blacklisting that fails ends the check with the suite's error (SuiteStepError), never a finding on the page.
    const { result, payment, response } = await payInBrowser(ctx, api, created.payment, pair, {
      privateKey,
      expect: 'FAILED',
      hooks: {
        beforeFirstSignature: async () => {
          ctx.progress('blacklisting the seller and the payer on Base USDC before the wallet signs');
          await blacklistUsdc(chains, pair.chainId, [seller, payer]);
          blacklisted = true;
        },
      },
    });
    ctx.require(
      blacklisted,
      'PAGE-PAY-ACTION',
      'The page never asked the wallet to sign',
      `the page ended ${result.end ? `with "${result.end.text}"` : 'with no end state'} without a signature request; screenshot ${result.screenshot}`,
    );
    ctx.addCases();
    ctx.require(
      payment.status === 'FAILED',
      'PAY-STATE-PROCESSING-TO-FAILED',
      'A reverted payment is not FAILED',
      `status ${payment.status}`,
      response.exchange,
    );
    ctx.judged('PAY-STATE-MEANING-FAILED');
    const after = { exchange: response.exchange };
    const error = payment.error as { code?: unknown; source?: unknown; message?: unknown } | null;
    ctx.expect(
      error !== null && typeof error === 'object',
      'PAY-FIELD-ERROR',
      'A FAILED payment has no error object',
      `error ${JSON.stringify(payment.error)}`,
      after.exchange,
    );
    ctx.expect(
      typeof error?.code === 'string' && typeof error?.source === 'string' && typeof error?.message === 'string',
      'PAY-ERROR-OBJECT-SHAPE',
      'The error object is not {code, source, message}',
      `error ${JSON.stringify(payment.error)}`,
      after.exchange,
    );
    ctx.expect(
      SOURCES.includes(String(error?.source)),
      'PAY-ERROR-SOURCE-VALUES',
      'error.source is not chain, bundler or service',
      `error ${JSON.stringify(payment.error)}`,
      after.exchange,
    );

    if (subject) {
      const deliveries = await subject.endpoint.waitFor((d) => eventsOf(d, 'payment.failed', id).length > 0, ctx.options.webhookWaitMs);
      const failed = eventsOf(deliveries, 'payment.failed', id);
      ctx.addCases();
      if (
        ctx.expect(
          failed.length > 0,
          'WH-EVENT-PAYMENT-FAILED',
          'payment.failed not delivered for a reverted payment',
          `received ${describeDeliveries(deliveries)}`,
        )
      ) {
        await ctx.clock.refresh();
        verifyDeliveries(ctx, subject, failed, () => 'WH-SIGN-HMAC');
      }
    }
    const again = await createPayment(api, { amount: '11', currency: 'USD', externalId });
    ctx.addCases();
    ctx.expect(
      again.status === 201,
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'externalId of a FAILED payment is not reusable',
      () => `expected 201, got ${again.status}: ${again.text.slice(0, 200)}`,
      again.exchange,
    );
  },
});
