// Shared by the customer checks: pay a payment through the hosted page, turn the agent's refusals into findings
// (PAGE-* with the query tried and a screenshot), wait for the API to agree, and verify the settlement on chain.
import type { Address } from 'viem';
import type { Transaction, TransactionList } from '../../../contract/types.ts';
import type { CheckContext } from '../../context.ts';
import { PageStepError, PageUnavailableError, type PayResult } from '../../customer/agent.ts';
import type { WalletHooks } from '../../customer/wallet.ts';
import { balanceDeltas, toUnits, verifySettlement, type ExpectedRecipient } from '../../customer/on-chain.ts';
import type { HttpClient } from '../../http/client.ts';
import { getPayment, type Payment } from '../../support/payments.ts';
import type { Received } from '../../support/received.ts';

/** The requirement a failed page step breaks. */
export const STEP_REQUIREMENT: Record<string, string> = {
  connect: 'PAGE-CONNECT-WALLET',
  pick: 'PAGE-PAIR-CHOICE',
  pay: 'PAGE-PAY-ACTION',
  'end-state': 'PAGE-FINAL-STATE',
};

/** Every (chain, token) pair the suite's chains carry (the spec's chain table). */
export function chainPairs(ctx: CheckContext): { chainId: number; token: string }[] {
  return ctx.customer.chains.chains.flatMap((c) => Object.keys(c.tokens).map((token) => ({ chainId: c.chainId, token })));
}

/** Runs a page interaction; a missing element becomes a finding on the step's PAGE-* requirement and stops the check. */
export async function onPage<T>(ctx: CheckContext, what: string, run: () => Promise<T>): Promise<T> {
  try {
    const done = await run();
    // The page let the customer through every step the check took: those of its PAGE-* requirements are judged.
    ctx.judged(...['PAGE-LOADS', ...Object.values(STEP_REQUIREMENT)].filter((id) => ctx.check.requirements.includes(id)));
    return done;
  } catch (error) {
    if (error instanceof PageUnavailableError) ctx.notExercised(error.message);
    if (error instanceof PageStepError) {
      const requirement = STEP_REQUIREMENT[error.step] ?? 'PAGE-FINAL-STATE';
      ctx.require(false, requirement, `The hosted page did not let the customer ${error.step} (${what})`, error.message);
    }
    throw error;
  }
}

export async function payInBrowser(ctx: CheckContext, payment: Payment, pair: { chainId: number; token: string }, hooks?: WalletHooks): Promise<PayResult> {
  ctx.progress(`paying ${payment.id} on ${pair.chainId}/${pair.token} through the hosted page`);
  return onPage(ctx, `${pair.chainId}/${pair.token}`, () => ctx.customer.agent.pay(String(payment.paymentUrl), `${ctx.check.id}-${payment.id.slice(0, 8)}`, pair, hooks));
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

/** The wallet requests that sign or send: the customer's "one transaction". */
export function signingRequests(result: PayResult): string[] {
  return result.wallet.log.filter((e) => e.outcome !== 'refused' && ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'].includes(e.method)).map((e) => e.method);
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
export async function verifyOnChain(ctx: CheckContext, api: HttpClient, payment: Payment, sellers: Address[], requirement: { tx: string; amounts: string; sellers: string }): Promise<void> {
  const { chains } = ctx.customer;
  const record = await ledgerRecord(api, payment.id);
  const transfers = (record?.transfers ?? []) as { role: 'merchant' | 'seller' | 'service'; address: Address; amountToken: string }[];
  const recipients: ExpectedRecipient[] = transfers.length
    ? transfers.map((t) => ({ role: t.role, address: t.address, amountToken: t.amountToken }))
    : [
        { role: 'merchant', address: null, amountToken: String(payment.merchantFeeToken) },
        { role: 'service', address: null, amountToken: String(payment.serviceFeeToken) },
      ];
  const result = await verifySettlement(chains, { chainId: Number(payment.chainId), token: String(payment.token), txHash: String(payment.txHash), recipients });
  ctx.addCases();
  const txProblems = result.problems.filter((p) => /txHash|did not succeed|moved no/.test(p));
  ctx.expect(txProblems.length === 0, requirement.tx, 'txHash is not the real settlement transaction', () => `payment ${payment.id}: ${txProblems.join('; ')}`);
  if (txProblems.length) return;
  const amountProblems = result.problems.filter((p) => !txProblems.includes(p));
  ctx.expect(amountProblems.length === 0, requirement.amounts, 'On-chain balances did not move by the amounts the API reports', () => `payment ${payment.id} (tx ${payment.txHash}): ${amountProblems.join('; ')}`);
  if (sellers.length === 0 || transfers.length) {
    if (sellers.length) {
      const paid = transfers.filter((t) => t.role === 'seller').map((t) => t.address.toLowerCase());
      ctx.expect(sellers.every((s) => paid.includes(s.toLowerCase())), requirement.sellers, 'Not every seller was paid in the settlement transaction', `sellers ${sellers.join(', ')}; ledger pays ${paid.join(', ')}`);
    }
    return;
  }
  // No ledger: the sellers together get amountToken - serviceFeeToken - merchantFeeToken, each a positive share, in this one transaction.
  const deltas = await balanceDeltas(chains, Number(payment.chainId), String(payment.token), result.blockNumber!, sellers);
  const decimals = ctx.customer.chains.chains.find((c) => c.chainId === payment.chainId)!.tokens[payment.token as 'USDC']!.decimals;
  const expectedTotal = toUnits(String(payment.amountToken), decimals) - toUnits(String(payment.serviceFeeToken), decimals) - toUnits(String(payment.merchantFeeToken), decimals);
  const total = deltas.reduce((a, b) => a + b, 0n);
  ctx.expect(deltas.every((d) => d > 0n) && total === expectedTotal, requirement.sellers, 'The sellers were not paid their share in the settlement transaction', `seller deltas ${deltas.join(', ')} (sum ${total}), expected the sum ${expectedTotal} = amountToken - serviceFeeToken - merchantFeeToken`);
}
