// The black-box customer pays one payment through the hosted page and the suite follows GET /v1/payments/{id} from
// the pay click until the payment is where the customer's action must bring it (SUCCESSFUL, or FAILED when the check
// made it revert), within the settle time-out. Every check that pays through the page goes through here, so the
// verdict on a payment that does not settle is the same everywhere:
// - the customer completed every step (connect, pair, pay, and the wallet signed or sent) and the API never showed
//   the payment PROCESSING and then SUCCESSFUL: a documented failure (PAY-STATE-ACTIVE-TO-PROCESSING while it stays
//   ACTIVE, PAY-STATE-PROCESSING-TO-SUCCESSFUL while it stays PROCESSING) with the wallet log and the screenshots;
// - the page did not let the customer take a step, or asked the wallet for nothing, or for something the suite's
//   wallet refused: the page contract (assumed) or the suite's own limit, never a documented failure;
// and in every case the agent is blocked, so the run's other customer payments are reported as not attempted, naming
// this one, instead of each waiting out its own time-outs.
import type { CheckContext } from '../context.ts';
import {
  CustomerAbortedError,
  CustomerBlockedError,
  PageStepError,
  PageUnavailableError,
  type PayOptions,
  type PayResult,
} from '../customer/agent.ts';
import { TRANSACTION_KINDS } from '../customer/signature-kind.ts';
import type { WalletLogEntry } from '../customer/wallet.ts';
import type { HttpClient, HttpResponse } from '../http/client.ts';
import { getPayment, TERMINAL, type Payment } from './payments.ts';
import { backOff } from '../back-off.ts';

/** The requirement each page step stands for (page contract, assumed). */
export const STEP_REQUIREMENT: Record<string, string> = {
  connect: 'PAGE-CONNECT-WALLET',
  pick: 'PAGE-PAIR-CHOICE',
  pay: 'PAGE-PAY-ACTION',
  'end-state': 'PAGE-FINAL-STATE',
};

const SIGNING_METHODS = new Set(['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction']);

export interface PagePayment {
  result: PayResult;
  /** The last answer of GET /v1/payments/{id}. */
  payment: Payment;
  response: HttpResponse;
  /** Statuses GET showed from the pay click on, in order, each once. */
  statuses: string[];
}

export interface PayThroughPageOptions extends Omit<PayOptions, 'follow'> {
  /** What the customer's action must bring the payment to (default: SUCCESSFUL); the wait ends at any end state. */
  expect?: 'SUCCESSFUL' | 'FAILED';
  /** How a page that breaks the page contract is reported: as a finding on its PAGE-* requirement (customer checks) or as not exercised. */
  pageProblems?: 'finding' | 'not-exercised';
  /** The suite holds the payment in PROCESSING (mining paused) until this resolves: the settle time-out starts then. */
  heldUntil?: Promise<void>;
}

/** The wallet requests that signed or sent something (answered). */
export function signedRequests(result: PayResult): WalletLogEntry[] {
  return result.wallet.log.filter((e) => SIGNING_METHODS.has(e.method) && e.outcome !== 'refused');
}

/** What the customer signed that is a transaction (an ordinary one, a user operation, a transfer authorization). */
export function transactionsSigned(result: PayResult): WalletLogEntry[] {
  return signedRequests(result).filter((e) => e.kind !== undefined && TRANSACTION_KINDS.includes(e.kind));
}

export function describeSigned(entries: WalletLogEntry[]): string {
  return entries.map((e) => `${e.method}${e.kind ? ` (${e.kind})` : ''}`).join(', ') || 'none';
}

function walletLogText(result: PayResult): string {
  return result.wallet.log.map((e) => `  +${e.atMs} ms ${e.method} ${e.outcome}${e.kind ? ` [${e.kind}]` : ''}: ${e.detail}`).join('\n');
}

function stepsText(result: PayResult): string {
  return result.steps.map((s) => `${s.step} ${s.ms} ms`).join(', ');
}

export async function payThroughPage(
  ctx: CheckContext,
  api: HttpClient,
  payment: Payment,
  pair: { chainId: number; token: string },
  options: PayThroughPageOptions = {},
): Promise<PagePayment> {
  const { agent } = ctx.customer;
  const expected = options.expect ?? 'SUCCESSFUL';
  const label = `${ctx.check.id}-${payment.id.slice(0, 8)}`;
  const where = `payment ${payment.id} of ${ctx.check.id} on ${pair.chainId}/${pair.token}`;
  let last: (HttpResponse & { payment: Payment }) | undefined;
  const statuses: string[] = [];
  let lateScreenshot: string | null = null;
  ctx.progress(`paying ${payment.id} on ${pair.chainId}/${pair.token} through the hosted page`);
  let result: PayResult;
  try {
    result = await agent.pay(String(payment.paymentUrl), label, pair, {
      ...options,
      follow: async (paid, session) => {
        // GET from the pay click (or the release of a held payment) until the expected end, within the settle time-out.
        let releasedAt = options.heldUntil ? Number.POSITIVE_INFINITY : paid.paidAt;
        void options.heldUntil?.then(() => (releasedAt = Date.now()));
        const pause = backOff({ maxMs: 250 });
        for (;;) {
          const deadline = releasedAt + agent.settleTimeoutMs;
          last = await getPayment(api, payment.id);
          const status = String(last.payment?.status);
          if (last.status === 200 && statuses.at(-1) !== status) statuses.push(status);
          // Any end ends the wait (a payment cancelled or expired meanwhile is the caller's to judge).
          if (last.status === 200 && TERMINAL.includes(status as never)) return;
          agent.ensureCurrent(session.generation, session.owner);
          if (Date.now() > deadline) break;
          await pause();
        }
        lateScreenshot = await session.screenshot('not-settled');
      },
    });
  } catch (error) {
    if (error instanceof CustomerBlockedError || error instanceof CustomerAbortedError) ctx.notExercised(error.message);
    if (error instanceof PageUnavailableError) {
      agent.block(`the payment page did not load (${where}): ${error.message}`);
      ctx.notExercised(error.message);
    }
    if (error instanceof PageStepError) {
      agent.block(`the hosted page did not let the customer ${error.step} (${where})`);
      pageProblem(
        ctx,
        options,
        STEP_REQUIREMENT[error.step] ?? 'PAGE-PAY-ACTION',
        `The hosted page did not let the customer ${error.step} (${pair.chainId}/${pair.token})`,
        error.message,
      );
    }
    throw error;
  }
  const response = last!;
  const ended = response.status === 200 && TERMINAL.includes(response.payment.status);
  if (ended) {
    const status = String(response.payment.status);
    if (result.end === null && result.endError)
      pageProblem(
        ctx,
        options,
        'PAGE-FINAL-STATE',
        'The page did not show the end state',
        `${where}: GET says ${status}; ${result.endError.message}`,
        false,
      );
    else if (result.end && result.end.state !== status.toLowerCase())
      pageProblem(
        ctx,
        options,
        'PAGE-FINAL-STATE',
        'The page shows another end than the API',
        `${where}: GET says ${status}, the page shows "${result.end.text}"; screenshot ${result.screenshot}`,
        false,
      );
    return { result, payment: response.payment, response, statuses };
  }

  // Not settled within the time-out: why decides the verdict; either way no other customer payment is attempted.
  const signed = signedRequests(result);
  const refused = result.wallet.log.filter((e) => SIGNING_METHODS.has(e.method) && e.outcome === 'refused');
  const screenshots = [result.screenshot, lateScreenshot].filter(Boolean).join(', ') || 'none';
  const evidence = `Wallet log (${label} in customer-wallet.json):\n${walletLogText(result)}\nscreenshots: ${screenshots}`;
  if (refused.length > 0) {
    agent.block(`the suite's wallet refused what the page asked (${where})`);
    ctx.notExercised(
      `the suite's wallet refused ${describeSigned(refused)} (${refused.map((e) => e.detail).join('; ')}), so the customer could not pay ${where} (steps: ${stepsText(result)}). ${evidence}`,
    );
  }
  if (signed.length === 0) {
    agent.block(`pressing pay asked the wallet for nothing (${where})`);
    pageProblem(
      ctx,
      options,
      'PAGE-PAY-ACTION',
      'Pressing pay did not ask the wallet to sign or send anything',
      `${where} (steps: ${stepsText(result)}). ${evidence}`,
    );
  }
  const seen = statuses.length > 0 ? statuses.join(' then ') : `no 200 answer (last: ${response.status})`;
  const stuck = String(response.payment?.status);
  const requirement =
    stuck === 'PROCESSING'
      ? expected === 'FAILED'
        ? 'PAY-STATE-PROCESSING-TO-FAILED'
        : 'PAY-STATE-PROCESSING-TO-SUCCESSFUL'
      : 'PAY-STATE-ACTIVE-TO-PROCESSING';
  const message = `The customer completed every step on the page (${stepsText(result)}; the wallet signed or sent ${describeSigned(signed)}) and GET /v1/payments/${payment.id} showed ${seen} for ${agent.settleTimeoutMs / 1000} s after the pay click, never ${stuck === 'PROCESSING' ? expected : `PROCESSING and then ${expected}`}. The page ${result.end ? `showed "${result.end.text}"` : 'showed no end state'}. ${evidence}`;
  agent.block(
    `${where} did not settle: the customer paid and GET showed ${seen} for ${agent.settleTimeoutMs / 1000} s (reported by ${ctx.check.id})`,
  );
  if (!ctx.check.requirements.includes(requirement)) ctx.notExercised(message);
  ctx.require(false, requirement, 'A payment the customer paid through the hosted page never settled', message, response.exchange);
}

/** A page-contract problem: a finding on its (assumed) requirement when the check judges the page, else not exercised. */
function pageProblem(
  ctx: CheckContext,
  options: PayThroughPageOptions,
  requirement: string,
  title: string,
  message: string,
  stop = true,
): void {
  const asFinding = (options.pageProblems ?? 'not-exercised') === 'finding' && ctx.check.requirements.includes(requirement);
  if (!stop) {
    if (asFinding) ctx.fail(requirement, title, message);
    return;
  }
  if (asFinding) ctx.require(false, requirement, title, message);
  ctx.notExercised(`the browser customer could not pay: ${message}`);
}
