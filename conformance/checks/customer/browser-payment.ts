// Shared by the customer checks: pay a payment through the hosted page (support/pay-through-page.ts: the page
// contract's refusals become PAGE-* findings with the query tried and a screenshot, and GET must follow the customer),
// open-page flows that do not pay (onPage), and the on-chain verification of a settlement.
import type { Address } from 'viem';
import type { Transaction, TransactionList } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { CustomerAbortedError, CustomerBlockedError, PageStepError, PageUnavailableError } from '../../customer/agent.ts';
import { NotExercisedSignal, RequirementError } from '../../errors.ts';
import { balanceDeltas, toUnits, verifySettlement, type ExpectedRecipient } from '../../customer/on-chain.ts';
import type { HttpClient } from '../../http/client.ts';
import { getPayment, type Payment } from '../../support/payments.ts';
import { payThroughPage, STEP_REQUIREMENT, type PagePayment, type PayThroughPageOptions } from '../../support/pay-through-page.ts';
import type { Received } from '../../received.ts';

export { transactionsSigned, describeSigned } from '../../support/pay-through-page.ts';

/** Every (chain, token) pair the suite's chains carry (the spec's chain table). */
export function chainPairs(ctx: CheckContext): { chainId: number; token: string }[] {
  return ctx.customer.chains.chains.flatMap((c) => Object.keys(c.tokens).map((token) => ({ chainId: c.chainId, token })));
}

/**
 * Runs a page interaction that does not pay (an open page followed elsewhere): a missing element becomes a finding on
 * the step's PAGE-* requirement and stops the check; a page that cannot be used blocks the run's other customer payments.
 */
export async function onPage<T>(ctx: CheckContext, what: string, run: () => Promise<T>): Promise<T> {
  try {
    const done = await run();
    // The page let the customer through every step the check took: those of its PAGE-* requirements are judged.
    ctx.judged(...['PAGE-LOADS', ...Object.values(STEP_REQUIREMENT)].filter((id) => ctx.check.requirements.includes(id)));
    return done;
  } catch (error) {
    if (error instanceof CustomerBlockedError || error instanceof CustomerAbortedError) ctx.notExercised(error.message);
    if (error instanceof PageUnavailableError) {
      ctx.customer.agent.block(`the payment page did not load (${ctx.check.id}, ${what})`);
      ctx.notExercised(error.message);
    }
    if (error instanceof PageStepError) {
      ctx.customer.agent.block(`the hosted page did not let the customer ${error.step} (${ctx.check.id}, ${what})`);
      const requirement = STEP_REQUIREMENT[error.step] ?? 'PAGE-FINAL-STATE';
      ctx.require(false, requirement, `The hosted page did not let the customer ${error.step} (${what})`, error.message);
    }
    throw error;
  }
}

/**
 * Runs payments side by side and waits for every one (a payment still in flight when the check ends would hold the
 * customer's slot): each payment's stopping finding is kept, then the first reason not to go on is raised.
 */
export async function allPayments(ctx: CheckContext, tasks: Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(tasks);
  const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  for (const error of errors)
    if (error instanceof RequirementError) ctx.fail(error.requirement, error.title, error.message, error.exchange);
  const stop = errors.find((e) => e instanceof NotExercisedSignal) ?? errors.find((e) => !(e instanceof RequirementError));
  if (stop) throw stop;
}

/** Pays through the page as a customer check: page-contract problems are findings, GET must follow (see payThroughPage). */
export function payInBrowser(
  ctx: CheckContext,
  api: HttpClient,
  payment: Payment,
  pair: { chainId: number; token: string },
  options: Omit<PayThroughPageOptions, 'pageProblems'> = {},
): Promise<PagePayment> {
  return payThroughPage(ctx, api, payment, pair, { ...options, pageProblems: 'finding' });
}

/** GET the payment until `until` holds or the webhook wait runs out; returns the last answer. */
export async function paymentWhen(ctx: CheckContext, api: HttpClient, id: string, until: (p: Payment) => boolean) {
  const deadline = Date.now() + Math.max(ctx.options.webhookWaitMs, 15_000);
  for (;;) {
    const current = await getPayment(api, id);
    if ((current.status === 200 && until(current.payment)) || Date.now() > deadline) return current;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The ledger record of a payment, when the implementation has the (assumed) ledger. */
export async function ledgerRecord(api: HttpClient, paymentId: string): Promise<Received<Transaction> | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const response = await api.get('/v1/transactions', { limit: 100, cursor });
    if (response.status !== 200) return undefined;
    const body = response.json as Received<TransactionList>;
    const found = body.data?.find((t) => t.paymentId === paymentId);
    if (found) return found;
    if (!body.hasMore || !body.data?.length) return undefined;
    cursor = body.data.at(-1)?.id;
  }
  return undefined;
}

/**
 * On-chain verification of a SUCCESSFUL payment: txHash is a real successful transaction on its chain, and each
 * recipient's balance moved by the API's amount in the token's smallest unit. Sellers' amounts and every address
 * come from the ledger when it has the payment; otherwise merchant and fee collector are found by their amounts and
 * the sellers (whose addresses the suite chose) must together receive what is left of amountToken.
 */
export async function verifyOnChain(
  ctx: CheckContext,
  api: HttpClient,
  payment: Payment,
  sellers: Address[],
  requirement: { tx: string; amounts: string; sellers: string },
): Promise<void> {
  const { chains } = ctx.customer;
  const record = await ledgerRecord(api, payment.id);
  const transfers = (record?.transfers ?? []) as { role: 'merchant' | 'seller' | 'service'; address: Address; amountToken: string }[];
  const recipients: ExpectedRecipient[] = transfers.length
    ? transfers.map((t) => ({ role: t.role, address: t.address, amountToken: t.amountToken }))
    : [
        { role: 'merchant', address: null, amountToken: String(payment.merchantFeeToken) },
        { role: 'service', address: null, amountToken: String(payment.serviceFeeToken) },
      ];
  const result = await verifySettlement(chains, {
    chainId: Number(payment.chainId),
    token: String(payment.token),
    txHash: String(payment.txHash),
    recipients,
  });
  ctx.addCases();
  const txProblems = result.problems.filter((p) => /txHash|did not succeed|moved no/.test(p));
  ctx.expect(
    txProblems.length === 0,
    requirement.tx,
    'txHash is not the real settlement transaction',
    () => `payment ${payment.id}: ${txProblems.join('; ')}`,
  );
  if (txProblems.length) return;
  const amountProblems = result.problems.filter((p) => !txProblems.includes(p));
  ctx.expect(
    amountProblems.length === 0,
    requirement.amounts,
    'On-chain balances did not move by the amounts the API reports',
    () => `payment ${payment.id} (tx ${payment.txHash}): ${amountProblems.join('; ')}`,
  );
  if (sellers.length === 0 || transfers.length) {
    if (sellers.length) {
      const paid = transfers.filter((t) => t.role === 'seller').map((t) => t.address.toLowerCase());
      ctx.expect(
        sellers.every((s) => paid.includes(s.toLowerCase())),
        requirement.sellers,
        'Not every seller was paid in the settlement transaction',
        `sellers ${sellers.join(', ')}; ledger pays ${paid.join(', ')}`,
      );
    }
    return;
  }
  // No ledger: the sellers together get amountToken - serviceFeeToken - merchantFeeToken, each a positive share, in this one transaction.
  const deltas = await balanceDeltas(chains, Number(payment.chainId), String(payment.token), result.blockNumber!, sellers);
  const decimals = ctx.customer.chains.chains.find((c) => c.chainId === payment.chainId)!.tokens[payment.token as 'USDC']!.decimals;
  const expectedTotal =
    toUnits(String(payment.amountToken), decimals) -
    toUnits(String(payment.serviceFeeToken), decimals) -
    toUnits(String(payment.merchantFeeToken), decimals);
  const total = deltas.reduce((a, b) => a + b, 0n);
  ctx.expect(
    deltas.every((d) => d > 0n) && total === expectedTotal,
    requirement.sellers,
    'The sellers were not paid their share in the settlement transaction',
    `seller deltas ${deltas.join(', ')} (sum ${total}), expected the sum ${expectedTotal} = amountToken - serviceFeeToken - merchantFeeToken`,
  );
}
