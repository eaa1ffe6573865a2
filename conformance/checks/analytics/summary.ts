// GET /v1/analytics summarises the merchant's payments with splits by stablecoin and chain. A fresh
// merchant makes payments in known states, so every count and sum has one right answer
// (assumed shape: docs/decisions.md "Analytics"; the default window is the last 30 days).
import type { Analytics } from '../../../contract/types.ts';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { cancelPayment, createPayment } from '../../support/payments.ts';
import type { Received } from '../../support/received.ts';

type Summary = Received<Analytics>;

export const analyticsSummary = defineCheck({
  id: 'analytics.summary',
  title: 'GET /v1/analytics counts the payments by status and splits settled volume by stablecoin and chain',
  requirements: ['ANL-SUMMARY-ENDPOINT', 'ANL-SUMMARY-SHAPE', 'ANL-RANGE-DEFAULT-30D', 'PAY-API-KEY-SCOPE'],
  level: 'documented',
  needs: ['control'],
  tags: ['analytics'],
  async run(ctx: CheckContext) {
    const { api } = await ctx.newMerchant('analytics');
    const ids: string[] = [];
    for (const amount of ['10.00', '20.00', '30.00', '40.00']) {
      const created = await createPayment(api, { amount, currency: 'USD' });
      ctx.requireStatus(created, 201, 'ANL-SUMMARY-ENDPOINT', 'Setup: create');
      ids.push(created.payment.id);
    }
    const usdc = await ctx.control.http.post(`/payments/${ids[0]}/pay`, { chainId: 8453, token: 'USDC' });
    const usdt = await ctx.control.http.post(`/payments/${ids[1]}/pay`, { chainId: 56, token: 'USDT' });
    ctx.require(usdc.status === 200 && usdt.status === 200, 'ANL-SUMMARY-ENDPOINT', 'Setup: control pay', `pay answered ${usdc.status} / ${usdt.status}`);
    ctx.requireStatus(await cancelPayment(api, ids[2]!), 200, 'ANL-SUMMARY-ENDPOINT', 'Setup: cancel');
    const paid = [usdc.json, usdt.json] as { amountToken: string; chainId: number; token: string }[];

    const response = await api.get('/v1/analytics');
    ctx.requireStatus(response, 200, 'ANL-SUMMARY-ENDPOINT', 'GET /v1/analytics does not answer');
    const summary = response.json as Summary;
    ctx.addCases();
    const byStatus = summary?.payments?.byStatus ?? {};
    const expected = { ACTIVE: 1, PROCESSING: 0, SUCCESSFUL: 2, FAILED: 0, EXPIRED: 0, CANCELLED: 1 };
    ctx.expect(summary?.payments?.total === 4 && JSON.stringify(Object.fromEntries((Object.keys(expected) as (keyof typeof expected)[]).map((k) => [k, byStatus[k]]))) === JSON.stringify(expected), 'ANL-SUMMARY-SHAPE', 'The payment counts are wrong', `expected total 4 and ${JSON.stringify(expected)}, got total ${JSON.stringify(summary?.payments?.total)} and ${JSON.stringify(byStatus)}`, response.exchange);
    const usd = summary?.volume?.find((v) => v.currency === 'USD');
    ctx.expect(usd?.count === 2 && usd.amount === '30.00' && usd.serviceFee === '0.15' && usd.merchantFee === '29.85' && summary.volume?.length === 1, 'ANL-SUMMARY-SHAPE', 'Volume is not the SUCCESSFUL payments only', `expected USD count 2, amount 30.00, serviceFee 0.15, merchantFee 29.85; got ${JSON.stringify(summary?.volume)}`, response.exchange);
    for (const p of paid) {
      ctx.addCases();
      const token = summary?.byToken?.find((t) => t.token === p.token);
      ctx.expect(token?.count === 1 && token.amountToken === p.amountToken, 'ANL-SUMMARY-ENDPOINT', `The ${p.token} split is wrong`, `expected count 1, amountToken ${p.amountToken}; got ${JSON.stringify(summary?.byToken)}`, response.exchange);
      const chain = summary?.byChain?.find((c) => c.chainId === p.chainId);
      ctx.expect(chain?.count === 1 && chain.amountToken === p.amountToken, 'ANL-SUMMARY-ENDPOINT', `The chain ${p.chainId} split is wrong`, `expected count 1, amountToken ${p.amountToken}; got ${JSON.stringify(summary?.byChain)}`, response.exchange);
    }
    const from = Date.parse(String(summary?.from));
    const to = Date.parse(String(summary?.to));
    ctx.expect(Math.abs(to - from - 30 * 86_400_000) < 1000 && Math.abs(to - (await ctx.clock.refresh())) < 60_000, 'ANL-RANGE-DEFAULT-30D', 'The default window is not the last 30 days', `from ${summary?.from}, to ${summary?.to}`, response.exchange);
    // An explicit window that ends before the payments were made counts none of them.
    const earlier = await api.get('/v1/analytics', { from: new Date(from - 86_400_000).toISOString(), to: new Date(from).toISOString() });
    ctx.addCases();
    ctx.expect(earlier.status === 200 && (earlier.json as Summary)?.payments?.total === 0, 'ANL-SUMMARY-SHAPE', 'A window before the payments still counts them', `answered ${earlier.status}: ${earlier.text.slice(0, 200)}`, earlier.exchange);
  },
});
