// One payment down each path (ACTIVE -> PROCESSING -> SUCCESSFUL, -> FAILED, -> EXPIRED): the
// retrieve view sets chainId/token/rate/token amounts after initiation, txHash/paidAt/gasActual
// after confirmation, error only when FAILED; terminal payments refuse cancel and stay as they are.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { INVARIANT_REQUIREMENTS } from '../../model/field-lifetimes.ts';
import { PaymentTracker } from '../../model/invariants.ts';
import { VIEW_REQUIREMENTS, viewJudged, viewViolations } from '../../model/view-rules.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { failAsCustomer, failableSellers, holdProcessing, requireCustomerPath } from '../../support/customer-path.ts';
import { cancelPayment, createPayment, getPayment, type Payment, type PaymentStatus } from '../../support/payments.ts';
import { markJudged, observe } from './observe.ts';

/** The chain/token table of spec §1. */
const ALL_PAIRS = [
  { chainId: 1, token: 'USDC' },
  { chainId: 1, token: 'USDT' },
  { chainId: 42161, token: 'USDC' },
  { chainId: 42161, token: 'USDT' },
  { chainId: 8453, token: 'USDC' },
  { chainId: 137, token: 'USDC' },
  { chainId: 137, token: 'USDT' },
  { chainId: 56, token: 'USDT' },
];

const MEANING: Partial<Record<PaymentStatus, string>> = {
  PROCESSING: 'PAY-STATE-MEANING-PROCESSING',
  SUCCESSFUL: 'PAY-STATE-MEANING-SUCCESSFUL',
  FAILED: 'PAY-STATE-MEANING-FAILED',
  EXPIRED: 'PAY-STATE-MEANING-EXPIRED',
};

/** ACTIVE, then PROCESSING, then an end state: a payment never goes back (PAY-STATE-FORWARD-ONLY). */
const RANK: Record<string, number> = { ACTIVE: 0, PROCESSING: 1, SUCCESSFUL: 2, FAILED: 2, EXPIRED: 2, CANCELLED: 2 };
const highestSeen = new Map<string, number>();

async function expectState(
  ctx: CheckContext,
  tracker: PaymentTracker,
  id: string,
  status: PaymentStatus,
  requirement: string,
  pair?: { chainId: number; token: string },
): Promise<void> {
  const got = await getPayment(ctx.api, id);
  const rank = RANK[String(got.payment?.status)];
  const before = highestSeen.get(id) ?? 0;
  if (rank !== undefined) {
    ctx.expect(
      rank >= before,
      'PAY-STATE-FORWARD-ONLY',
      'A payment went back to an earlier state',
      `payment ${id} is ${got.payment?.status} after it had reached a later state`,
      got.exchange,
    );
    highestSeen.set(id, Math.max(rank, before));
  }
  ctx.require(
    got.payment?.status === status,
    requirement,
    `Payment is not ${status}`,
    () => `GET shows ${got.payment?.status ?? got.status}`,
    got.exchange,
  );
  // Each state reached here by its documented cause (submit, confirm, revert or bundler error, expiry): it means what the spec says.
  const meaning = MEANING[status];
  if (meaning) ctx.judged(meaning);
  if (rank !== undefined) ctx.judged('PAY-STATE-FORWARD-ONLY');
  for (const v of viewViolations(got.payment, pair))
    ctx.fail(v.requirement, `Retrieve view of a ${status} payment is wrong`, v.message, got.exchange);
  markJudged(ctx, viewJudged(got.payment, pair));
  observe(ctx, tracker, got);
  ctx.addCases();
}

export const stateFields = defineCheck({
  id: 'lifecycle.state-fields',
  title: 'Retrieve-view fields are set per state, and terminal states refuse cancel and never change',
  requirements: [
    ...VIEW_REQUIREMENTS,
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
    'PAY-STATE-PROCESSING-TO-FAILED',
    'PAY-STATE-ACTIVE-TO-EXPIRED',
    'PAY-CANCEL-ONLY-ACTIVE',
    'PAY-STATE-TERMINAL-FINAL',
    'PAY-STATE-PROCESSING-NO-EXPIRY',
    'PAY-STATE-FORWARD-ONLY',
    // Each state is reached only by its documented cause (submit, confirm, revert or bundler error, expiry),
    // and a GET after every change shows it: retrieve is pollable and reveals completion.
    'PAY-STATE-MEANING-PROCESSING',
    'PAY-STATE-MEANING-SUCCESSFUL',
    'PAY-STATE-MEANING-FAILED',
    'PAY-STATE-MEANING-EXPIRED',
    'PAY-GET-POLLABLE',
    'PAY-COMPLETION-POLL-OR-WEBHOOK',
    'PAY-STATE-CANCELLED-URL-CLOSED',
    'PAY-ONE-LINK-ALL-CHAINS',
    // Field lifetimes (model/field-lifetimes.ts), judged on every observation.
    ...INVARIANT_REQUIREMENTS,
  ].filter((id, i, all) => all.indexOf(id) === i),
  level: 'documented',
  needs: [],
  tags: ['lifecycle', 'clock'],
  // One page at a time (the held payments' pages one after the other, the cancelled one's between them); it stops
  // mining on two chains meanwhile.
  resources: { exclusive: ['clock'], browserSlots: 1, pausesMining: true },
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const path = requireCustomerPath(ctx);
    if (!ctx.canMoveClock) ctx.notExercised('no clock the suite can move');
    if (path === 'browser') return browserPath(ctx);
    await ctx.clock.refresh();
    const tracker = new PaymentTracker();
    const make = maker(ctx, tracker);
    const paid = await make();
    const failed = await make();
    const expiring = await make();
    const processing = await make();
    const bundlerFailed = await make();
    const cancelled = await make();
    await expectState(ctx, tracker, paid, 'ACTIVE', 'PAY-STATE-ACTIVE-TO-PROCESSING');
    // Polling: before the customer acts, the payment stays ACTIVE however often it is read.
    await expectState(ctx, tracker, paid, 'ACTIVE', 'PAY-GET-POLLABLE');
    const pair = { chainId: 137, token: 'USDT' };
    for (const id of [paid, failed, processing, bundlerFailed]) await ctx.control.submit(id, pair.chainId, pair.token);
    await expectState(ctx, tracker, paid, 'PROCESSING', 'PAY-STATE-ACTIVE-TO-PROCESSING', pair);
    const busy = await cancelPayment(ctx.api, processing);
    ctx.expect(
      busy.status === 400,
      'PAY-CANCEL-ONLY-ACTIVE',
      'Cancel of a PROCESSING payment is not 400',
      () => `got ${busy.status}: ${busy.text.slice(0, 200)}`,
      busy.exchange,
    );
    await ctx.control.confirm(paid);
    await expectState(ctx, tracker, paid, 'SUCCESSFUL', 'PAY-STATE-PROCESSING-TO-SUCCESSFUL', pair);
    // Completion learned by polling alone: the same GET now shows SUCCESSFUL.
    await expectState(ctx, tracker, paid, 'SUCCESSFUL', 'PAY-COMPLETION-POLL-OR-WEBHOOK', pair);
    await ctx.control.fail(failed, { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'conformance revert' });
    await expectState(ctx, tracker, failed, 'FAILED', 'PAY-STATE-PROCESSING-TO-FAILED', pair);
    await ctx.control.fail(bundlerFailed, { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: 'conformance bundler error' });
    await expectState(ctx, tracker, bundlerFailed, 'FAILED', 'PAY-STATE-MEANING-FAILED', pair);
    // A cancelled payment's link stops accepting transactions: a customer submit is refused.
    const cancel = await cancelPayment(ctx.api, cancelled);
    ctx.requireStatus(cancel, '2xx', 'PAY-STATE-CANCELLED-URL-CLOSED', 'Setup: cancel an ACTIVE payment');
    observe(ctx, tracker, cancel);
    const lateSubmit = await ctx.control.submitRaw(cancelled, pair.chainId, pair.token);
    ctx.expect(
      lateSubmit.status !== 200,
      'PAY-STATE-CANCELLED-URL-CLOSED',
      'Customer submit accepted on a CANCELLED payment',
      () => `control submit answered ${lateSubmit.status}: ${lateSubmit.text.slice(0, 200)}`,
      lateSubmit.exchange,
    );
    await expectState(ctx, tracker, cancelled, 'CANCELLED', 'PAY-STATE-CANCELLED-URL-CLOSED');
    await ctx.control.advance(21 * 60_000);
    await ctx.clock.refresh();
    await expectState(ctx, tracker, expiring, 'EXPIRED', 'PAY-STATE-ACTIVE-TO-EXPIRED');
    await expectState(ctx, tracker, processing, 'PROCESSING', 'PAY-STATE-PROCESSING-NO-EXPIRY', pair);
    // Terminal states: cancel is 400, further transitions are refused, time changes nothing.
    for (const [id, status] of [
      [paid, 'SUCCESSFUL'],
      [failed, 'FAILED'],
      [expiring, 'EXPIRED'],
    ] as const) {
      await refuseCancel(ctx, id, status);
      await ctx.control.submitRaw(id, pair.chainId, pair.token);
      await ctx.control.confirmRaw(id);
      await ctx.control.failRaw(id, {});
    }
    // One create, one link for every chain and token: a default payment accepts each pair of the table.
    for (const each of ALL_PAIRS) {
      const id = await make();
      await ctx.control.submit(id, each.chainId, each.token);
      await expectState(ctx, tracker, id, 'PROCESSING', 'PAY-ONE-LINK-ALL-CHAINS', each);
    }
    await ctx.control.advance(2 * 86_400_000);
    await ctx.clock.refresh();
    await expectState(ctx, tracker, paid, 'SUCCESSFUL', 'PAY-STATE-TERMINAL-FINAL', pair);
    await expectState(ctx, tracker, failed, 'FAILED', 'PAY-STATE-TERMINAL-FINAL', pair);
    await expectState(ctx, tracker, expiring, 'EXPIRED', 'PAY-STATE-TERMINAL-FINAL');
    await expectState(ctx, tracker, cancelled, 'CANCELLED', 'PAY-STATE-TERMINAL-FINAL');
  },
});

function maker(ctx: CheckContext, tracker: PaymentTracker) {
  return async (failable = false): Promise<string> => {
    const sellers = failable ? failableSellers(ctx) : undefined;
    const body = {
      amount: await acceptedAmount(ctx, 'USD', '250.00'),
      currency: 'USD',
      expiresAt: new Date(ctx.clock.now() + 20 * 60_000).toISOString(),
      ...(sellers ? { sellers } : {}),
    };
    const created = await createPayment(ctx.api, body);
    ctx.requireStatus(created, 201, 'PAY-STATE-ACTIVE-TO-PROCESSING', 'Setup: create');
    tracker.created(created.payment.id, body);
    observe(ctx, tracker, created);
    payments.set(created.payment.id, created.payment);
    return created.payment.id;
  };
}

const payments = new Map<string, Payment>();

async function refuseCancel(ctx: CheckContext, id: string, status: string): Promise<void> {
  const refused = await cancelPayment(ctx.api, id);
  ctx.expect(
    refused.status === 400,
    'PAY-CANCEL-ONLY-ACTIVE',
    `Cancel of a ${status} payment is not 400`,
    () => `got ${refused.status}: ${refused.text.slice(0, 200)}`,
    refused.exchange,
  );
}

/**
 * The same paths with the browser customer: PROCESSING is held by pausing the suite's chain, FAILED comes from a
 * revert the suite causes (a blacklisted seller), a cancelled payment's page must refuse to pay. A bundler error and
 * transitions forced on terminal payments need the control API; one link for every pair is customer.pay-each-pair.
 */
async function browserPath(ctx: CheckContext): Promise<void> {
  await ctx.clock.refresh();
  const tracker = new PaymentTracker();
  const make = maker(ctx, tracker);
  const pair = { chainId: 8453, token: 'USDC' };
  const holdPair = { chainId: 137, token: 'USDT' };
  const paid = await make();
  const failed = await make(true);
  const expiring = await make();
  const processing = await make();
  const cancelled = await make();
  await expectState(ctx, tracker, paid, 'ACTIVE', 'PAY-STATE-ACTIVE-TO-PROCESSING');
  await expectState(ctx, tracker, paid, 'ACTIVE', 'PAY-GET-POLLABLE');
  const held = await holdProcessing(ctx, ctx.api, payments.get(paid)!, pair);
  await expectState(ctx, tracker, paid, 'PROCESSING', 'PAY-STATE-ACTIVE-TO-PROCESSING', pair);
  const busy = await cancelPayment(ctx.api, paid);
  ctx.expect(
    busy.status === 400,
    'PAY-CANCEL-ONLY-ACTIVE',
    'Cancel of a PROCESSING payment is not 400',
    () => `got ${busy.status}: ${busy.text.slice(0, 200)}`,
    busy.exchange,
  );
  await held.release();
  await expectState(ctx, tracker, paid, 'SUCCESSFUL', 'PAY-STATE-PROCESSING-TO-SUCCESSFUL', pair);
  await expectState(ctx, tracker, paid, 'SUCCESSFUL', 'PAY-COMPLETION-POLL-OR-WEBHOOK', pair);
  await failAsCustomer(ctx, ctx.api, payments.get(failed)!, pair);
  await expectState(ctx, tracker, failed, 'FAILED', 'PAY-STATE-PROCESSING-TO-FAILED', pair);
  await expectState(ctx, tracker, failed, 'FAILED', 'PAY-STATE-MEANING-FAILED', pair);
  // The cancelled payment's page before the held one's: one page at a time, so the check needs one browser slot.
  const cancel = await cancelPayment(ctx.api, cancelled);
  ctx.requireStatus(cancel, '2xx', 'PAY-STATE-CANCELLED-URL-CLOSED', 'Setup: cancel an ACTIVE payment');
  observe(ctx, tracker, cancel);
  const page = await ctx.customer.agent.open(String(payments.get(cancelled)!.paymentUrl), `${ctx.check.id}-cancelled`, {
    chainId: pair.chainId,
  });
  try {
    ctx.expect(
      !(await page.canPay(pair.chainId, pair.token)),
      'PAY-STATE-CANCELLED-URL-CLOSED',
      'The page of a CANCELLED payment still offers to pay',
      `screenshot ${await page.screenshot('cancelled')}`,
    );
  } finally {
    await page.close();
  }
  await expectState(ctx, tracker, cancelled, 'CANCELLED', 'PAY-STATE-CANCELLED-URL-CLOSED');
  const stuck = await holdProcessing(ctx, ctx.api, payments.get(processing)!, holdPair);
  try {
    await ctx.advanceClock(21 * 60_000);
    await ctx.clock.refresh();
    await expectState(ctx, tracker, expiring, 'EXPIRED', 'PAY-STATE-ACTIVE-TO-EXPIRED');
    await expectState(ctx, tracker, processing, 'PROCESSING', 'PAY-STATE-PROCESSING-NO-EXPIRY', holdPair);
    for (const [id, status] of [
      [paid, 'SUCCESSFUL'],
      [failed, 'FAILED'],
      [expiring, 'EXPIRED'],
    ] as const)
      await refuseCancel(ctx, id, status);
    await ctx.advanceClock(2 * 86_400_000);
    await ctx.clock.refresh();
    await expectState(ctx, tracker, paid, 'SUCCESSFUL', 'PAY-STATE-TERMINAL-FINAL', pair);
    await expectState(ctx, tracker, failed, 'FAILED', 'PAY-STATE-TERMINAL-FINAL', pair);
    await expectState(ctx, tracker, expiring, 'EXPIRED', 'PAY-STATE-TERMINAL-FINAL');
    await expectState(ctx, tracker, cancelled, 'CANCELLED', 'PAY-STATE-TERMINAL-FINAL');
  } finally {
    await stuck.release();
  }
  await expectState(ctx, tracker, processing, 'SUCCESSFUL', 'PAY-STATE-PROCESSING-TO-SUCCESSFUL', holdPair);
}
