// GET /v1/analytics summarises the merchant's payments with splits by stablecoin and chain. A fresh
// merchant makes payments in known states, so every count and sum has one right answer
// (assumed shape: docs/decisions.md "Analytics"; the default window is the last 30 days). The spec shows
// no fields, so the documented judgement is what the body names; the counts and sums warn.
import type { Analytics } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { checkMerchant, payAsCustomer, requireCustomerPath } from '../../support/customer-path.ts';
import { formatUnits, toScale } from '../../facts/decimal.ts';
import { amountScale } from '../../support/amounts.ts';
import { cancelPayment, createPayment, type Payment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';

type Summary = Received<Analytics>;

export const analyticsSummary = defineCheck({
  id: 'analytics.summary',
  title: 'GET /v1/analytics counts the payments by status and splits settled volume by stablecoin and chain',
  requirements: ['ANL-SUMMARY-ENDPOINT', 'ANL-SUMMARY-SHAPE', 'ANL-RANGE-DEFAULT-30D', 'PAY-API-KEY-SCOPE'],
  level: 'documented',
  needs: [],
  tags: ['analytics'],
  resources: { exclusive: ['main-merchant-books'], browserSlots: 2 },
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    requireCustomerPath(ctx);
    // A fresh merchant with the control API; else the main merchant, judged by what this check adds to its summary.
    const api = await checkMerchant(ctx, 'analytics');
    const first = await api.get('/v1/analytics');
    ctx.requireStatus(first, 200, 'ANL-SUMMARY-ENDPOINT', 'GET /v1/analytics does not answer');
    // The key that creates payments drives analytics too.
    ctx.judged('PAY-API-KEY-SCOPE');
    const before = first.json as Summary;
    const ids: Payment[] = [];
    // Amounts of our choosing, all at or above the minimum the run established.
    const scale = await amountScale(ctx, 'USD', '10');
    for (const amount of [10, 20, 30, 40].map((n) => `${n * scale}.00`)) {
      const created = await createPayment(api, { amount, currency: 'USD' });
      ctx.requireStatus(created, 201, 'ANL-SUMMARY-ENDPOINT', 'Setup: create');
      ids.push(created.payment);
    }
    const createdAt = Date.parse(String(ids[0]!.createdAt));
    const pastWindow = { from: new Date(createdAt - 2 * 86_400_000).toISOString(), to: new Date(createdAt - 86_400_000).toISOString() };
    const pastBefore = await api.get('/v1/analytics', pastWindow);
    const paid = await Promise.all([
      payAsCustomer(ctx, api, ids[0]!, { chainId: 8453, token: 'USDC' }),
      payAsCustomer(ctx, api, ids[1]!, { chainId: 56, token: 'USDT' }),
    ]);
    ctx.require(
      paid.every((p) => p.status === 'SUCCESSFUL'),
      'ANL-SUMMARY-ENDPOINT',
      "Setup: the customer's payments did not settle",
      `statuses ${paid.map((p) => p.status).join(', ')}`,
    );
    ctx.requireStatus(await cancelPayment(api, ids[2]!.id), '2xx', 'ANL-SUMMARY-ENDPOINT', 'Setup: cancel');

    const response = await api.get('/v1/analytics');
    ctx.requireStatus(response, 200, 'ANL-SUMMARY-ENDPOINT', 'GET /v1/analytics does not answer');
    const summary = response.json as Summary;
    ctx.addCases();
    const byStatus = summary?.payments?.byStatus ?? {};
    const expected = { ACTIVE: 1, PROCESSING: 0, SUCCESSFUL: 2, FAILED: 0, EXPIRED: 0, CANCELLED: 1 };
    const added = Object.fromEntries(
      (Object.keys(expected) as (keyof typeof expected)[]).map((k) => [k, (byStatus[k] ?? NaN) - (before?.payments?.byStatus?.[k] ?? 0)]),
    );
    const addedTotal = (summary?.payments?.total ?? NaN) - (before?.payments?.total ?? 0);
    ctx.expect(
      addedTotal === 4 && JSON.stringify(added) === JSON.stringify(expected),
      'ANL-SUMMARY-SHAPE',
      'The payment counts are wrong',
      `expected 4 more payments, by status ${JSON.stringify(expected)}; got ${addedTotal} more, by status ${JSON.stringify(added)} (now ${JSON.stringify(byStatus)})`,
      response.exchange,
    );
    const volume = (s: Summary | undefined, currency: string) => s?.volume?.find((v) => v.currency === currency);
    const plus = (after: string | undefined, prior: string | undefined) =>
      after === undefined ? 'missing' : formatUnits(toScale(after, 6) - toScale(prior ?? '0', 6), 6);
    const usd = volume(summary, 'USD');
    const usdBefore = volume(before, 'USD');
    const usdAdded = {
      count: (usd?.count ?? NaN) - (usdBefore?.count ?? 0),
      amount: plus(usd?.amount, usdBefore?.amount),
      serviceFee: plus(usd?.serviceFee, usdBefore?.serviceFee),
      merchantFee: plus(usd?.merchantFee, usdBefore?.merchantFee),
    };
    const otherMoved = (summary?.volume ?? []).filter(
      (v) => v.currency !== 'USD' && JSON.stringify(v) !== JSON.stringify(volume(before, String(v.currency))),
    );
    const sum = (field: 'amount' | 'serviceFee' | 'merchantFee') =>
      formatUnits(
        paid.reduce((total, p) => total + toScale(String(p[field]), 6), 0n),
        6,
      );
    const expectedUsd = { count: 2, amount: sum('amount'), serviceFee: sum('serviceFee'), merchantFee: sum('merchantFee') };
    ctx.expect(
      JSON.stringify(usdAdded) === JSON.stringify(expectedUsd) && otherMoved.length === 0,
      'ANL-SUMMARY-SHAPE',
      'Volume is not the SUCCESSFUL payments only',
      `expected USD to grow by ${JSON.stringify(expectedUsd)} and no other currency to move; got ${JSON.stringify(usdAdded)}, other currencies moved: ${JSON.stringify(otherMoved)}`,
      response.exchange,
    );
    // Documented: the summary splits by stablecoin and by chain. Its shape is ours, so that much is judged by what
    // the body names: the tokens and chains the settled payments used.
    for (const p of paid) {
      const named = response.text.includes(`"${p.token}"`) && new RegExp(`(?<![0-9])"?${p.chainId}"?(?![0-9])`).test(response.text);
      ctx.expect(
        named,
        'ANL-SUMMARY-ENDPOINT',
        'The summary does not split by stablecoin and chain',
        `after a payment in ${p.token} on chain ${p.chainId} the summary names neither in full: ${response.text.slice(0, 300)}`,
        response.exchange,
      );
    }
    for (const p of paid) {
      ctx.addCases();
      const token = summary?.byToken?.find((t) => t.token === p.token);
      const tokenBefore = before?.byToken?.find((t) => t.token === p.token);
      ctx.expect(
        (token?.count ?? NaN) - (tokenBefore?.count ?? 0) === 1 &&
          plus(token?.amountToken, tokenBefore?.amountToken) === formatUnits(toScale(String(p.amountToken), 6), 6),
        'ANL-SUMMARY-SHAPE',
        `The ${p.token} split is wrong`,
        `expected count +1, amountToken +${p.amountToken}; got ${JSON.stringify(summary?.byToken)} after ${JSON.stringify(before?.byToken)}`,
        response.exchange,
      );
      const chain = summary?.byChain?.find((c) => c.chainId === p.chainId);
      const chainBefore = before?.byChain?.find((c) => c.chainId === p.chainId);
      ctx.expect(
        (chain?.count ?? NaN) - (chainBefore?.count ?? 0) === 1 &&
          plus(chain?.amountToken, chainBefore?.amountToken) === formatUnits(toScale(String(p.amountToken), 6), 6),
        'ANL-SUMMARY-SHAPE',
        `The chain ${p.chainId} split is wrong`,
        `expected count +1, amountToken +${p.amountToken}; got ${JSON.stringify(summary?.byChain)} after ${JSON.stringify(before?.byChain)}`,
        response.exchange,
      );
    }
    const from = Date.parse(String(summary?.from));
    const to = Date.parse(String(summary?.to));
    ctx.expect(
      Math.abs(to - from - 30 * 86_400_000) < 1000 && Math.abs(to - (await ctx.clock.refresh())) < 60_000,
      'ANL-RANGE-DEFAULT-30D',
      'The default window is not the last 30 days',
      `from ${summary?.from}, to ${summary?.to}`,
      response.exchange,
    );
    // An explicit window that ends before the payments were made counts none of them.
    const earlier = await api.get('/v1/analytics', pastWindow);
    ctx.addCases();
    const pastTotal = (pastBefore.json as Summary | undefined)?.payments?.total;
    ctx.expect(
      earlier.status === 200 && (earlier.json as Summary)?.payments?.total === pastTotal,
      'ANL-SUMMARY-SHAPE',
      'A window before the payments still counts them',
      `the window ${pastWindow.from}..${pastWindow.to} counted ${pastTotal} payments before this check's payments and ${(earlier.json as Summary | undefined)?.payments?.total} after: ${earlier.text.slice(0, 200)}`,
      earlier.exchange,
    );
  },
});
