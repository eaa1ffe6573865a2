// Acting as the customer, whichever way this run can: through the control API when there is one (fast, milliseconds),
// else through the hosted page in a browser (the black-box customer, seconds). Checks call these instead of the control
// API so they run against any implementation; `ctx.customerPath` says which path ran (the check notes it in its
// progress and the report's notes name the path per check).
//
// Browser path details:
// - PROCESSING held: the suite stops mining on its own chain before the wallet signs, so the payment's transaction
//   waits in the chain's mempool; releasing mines it.
// - FAILED: the payment carries one seller the suite made up; before the wallet signs, the suite blacklists it with the
//   chains file's USDC blacklister key, so the transfer reverts on chain. Failing payments therefore pay in USDC.
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { CheckContext } from '../context.ts';
import { blacklistUsdc, chainOf } from '../customer/on-chain.ts';
import type { HttpClient } from '../http/client.ts';
import { payThroughPage } from './pay-through-page.ts';
import { getPayment, type Payment } from './payments.ts';
import { backOff } from '../back-off.ts';

export interface Pair {
  chainId: number;
  token: string;
}

/** Not exercised unless a control API or the browser customer is there; notes which path runs. */
export function requireCustomerPath(ctx: CheckContext): 'control' | 'browser' {
  const path = ctx.customerPath;
  if (!path) ctx.notExercised('no control API and no browser customer (a black-box run pays through the hosted page)');
  ctx.progress(path === 'control' ? 'customer actions through the control API' : 'customer actions through the hosted page in a browser');
  customerPathsUsed.add(`${ctx.check.id}: ${path}`);
  return path;
}

/** Which check used which customer path in this process (for the report's notes). */
export const customerPathsUsed = new Set<string>();

/** A merchant of the check's own with the control API; without it the main merchant (the run's checks are sequential). */
export async function checkMerchant(ctx: CheckContext, purpose: string): Promise<HttpClient> {
  return ctx.services.control ? (await ctx.newMerchant(purpose)).api : ctx.api;
}

/** Sellers to add to a payment the check may make fail (the browser path needs one to blacklist). */
export function failableSellers(ctx: CheckContext, amount = '1'): { address: Address; amount: string }[] | undefined {
  return ctx.customerPath === 'browser' ? [{ address: privateKeyToAccount(generatePrivateKey()).address, amount }] : undefined;
}

/** Polls GET until one of `statuses`, or until `done()` says the wait no longer matters (no polling left behind). */
async function waitForStatus(
  ctx: CheckContext,
  api: HttpClient,
  id: string,
  statuses: string[],
  done: () => boolean,
  timeoutMs = 60_000,
): Promise<Payment> {
  const deadline = Date.now() + timeoutMs;
  const pause = backOff({ maxMs: 250 });
  for (;;) {
    const current = await getPayment(api, id);
    if ((current.status === 200 && statuses.includes(String(current.payment.status))) || done()) return current.payment;
    if (Date.now() > deadline) {
      ctx.notExercised(
        `the payment ${id} did not become ${statuses.join(' or ')} within ${timeoutMs / 1000} s of the customer's action (it is ${current.payment?.status})`,
      );
    }
    await pause();
  }
}

/** Pays the payment on `pair` and returns it once SUCCESSFUL (or whatever end state it reached). */
export async function payAsCustomer(ctx: CheckContext, api: HttpClient, payment: Payment, pair: Pair): Promise<Payment> {
  if (requireCustomerPath(ctx) === 'control') {
    const paid = await ctx.control.http.post(`/payments/${payment.id}/pay`, pair);
    ctx.requireStatus(paid, 200, ctx.check.requirements[0]!, 'Setup: control pay');
    return paid.json as Payment;
  }
  // A page the customer cannot use, or a payment that does not settle, is judged in payThroughPage (customer.settles
  // gives the documented verdict); this check is then not exercised.
  return (await payThroughPage(ctx, api, payment, pair)).payment;
}

/** Makes the payment FAILED as a customer would see it happen: control fail, or a revert on chain (needs failableSellers). */
export async function failAsCustomer(
  ctx: CheckContext,
  api: HttpClient,
  payment: Payment,
  pair: Pair = { chainId: 8453, token: 'USDC' },
): Promise<Payment> {
  if (requireCustomerPath(ctx) === 'control') {
    await ctx.control.submit(payment.id, pair.chainId, pair.token);
    await ctx.control.fail(payment.id, { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'conformance: reverted' });
    return (await getPayment(api, payment.id)).payment;
  }
  const seller = payment.sellers?.[0]?.address as Address | undefined;
  if (!seller) throw new Error('failAsCustomer: create the payment with failableSellers(ctx)');
  if (pair.token !== 'USDC') throw new Error('failAsCustomer: the browser path fails USDC payments (the suite holds the USDC blacklister)');
  const paid = await payThroughPage(ctx, api, payment, pair, {
    expect: 'FAILED',
    hooks: { beforeFirstSignature: () => blacklistUsdc(ctx.customer.chains, pair.chainId, [seller]) },
  });
  return paid.payment;
}

async function rpc(url: string, method: string, params: unknown[]): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
}

/**
 * Submits as the customer and holds the payment in PROCESSING until `release()`, which confirms it on chain and
 * resolves with the SUCCESSFUL payment.
 */
export async function holdProcessing(
  ctx: CheckContext,
  api: HttpClient,
  payment: Payment,
  pair: Pair,
): Promise<{ processing: Payment; release(): Promise<Payment> }> {
  if (requireCustomerPath(ctx) === 'control') {
    const processing = await ctx.control.submit(payment.id, pair.chainId, pair.token);
    void processing;
    return {
      processing: (await getPayment(api, payment.id)).payment,
      release: async () => {
        await ctx.control.confirm(payment.id);
        return (await getPayment(api, payment.id)).payment;
      },
    };
  }
  const rpcUrl = chainOf(ctx.customer.chains, pair.chainId).rpcUrl;
  // No other check's page of this instance is open while its chain does not mine, and none opens until it mines again.
  const alone = await ctx.customer.agent.holdChainsAlone();
  let paused = false;
  let released!: () => void;
  const heldUntil = new Promise<void>((resolve) => (released = resolve));
  const resume = async () => {
    released();
    try {
      if (!paused) return;
      paused = false;
      await rpc(rpcUrl, 'evm_setAutomine', [true]);
      await rpc(rpcUrl, 'evm_mine', []);
    } finally {
      alone();
    }
  };
  ctx.onCleanup(resume);
  const paying = payThroughPage(ctx, api, payment, pair, {
    heldUntil,
    hooks: {
      beforeFirstSignature: async () => {
        await rpc(rpcUrl, 'evm_setAutomine', [false]);
        paused = true;
      },
    },
  });
  paying.catch(() => undefined);
  // When the payment through the page ends first (e.g. it could not be made), the poll stops too: left running, it would
  // spend the key's requests during later checks (rate-limit.header-semantics counts them one by one).
  let payingEnded = false;
  paying.then(
    () => (payingEnded = true),
    () => (payingEnded = true),
  );
  const processing = await Promise.race([
    waitForStatus(ctx, api, payment.id, ['PROCESSING', 'SUCCESSFUL', 'FAILED'], () => payingEnded),
    paying.then(() => null),
  ]);
  return {
    processing: processing ?? (await getPayment(api, payment.id)).payment,
    release: async () => {
      await resume();
      return (await paying).payment;
    },
  };
}
