// GET /v1/analytics body: counts by status, SUCCESSFUL volume per currency, and token amounts
// split by stablecoin and by chain. Sums use bigint units, never JS numbers.
import { CHAIN_IDS, TOKENS } from '../reference-data/chains.ts';
import { currencyOrThrow } from '../reference-data/currencies.ts';
import { formatUnits, toUnits } from '../money/decimal.ts';
import { TOKEN_SCALE } from '../money/token-amounts.ts';
import type { Payment, PaymentStatus } from '../payments/types.ts';
import { PAYMENT_STATUSES } from '../payments/types.ts';
import type { Analytics as AnalyticsSummary } from '../../contract/types.ts';
import { wireChainId, wireCurrency } from '../support/wire-enums.ts';

export type { AnalyticsSummary };

interface Tally {
  count: number;
  a: bigint;
  b: bigint;
  c: bigint;
}

const tally = (): Tally => ({ count: 0, a: 0n, b: 0n, c: 0n });

/** Summarise payments created within [from, to] (milliseconds, inclusive). */
export function summarize(payments: Iterable<Payment>, from: number, to: number): AnalyticsSummary {
  const byStatus = Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, 0])) as Record<PaymentStatus, number>;
  const volume = new Map<string, Tally>();
  const byToken = new Map<string, Tally>();
  const byChain = new Map<number, Tally>();
  let total = 0;
  for (const p of payments) {
    if (p.createdAt < from || p.createdAt > to) continue;
    total += 1;
    byStatus[p.status] += 1;
    if (p.status !== 'SUCCESSFUL' || p.token === null || p.chainId === null || p.amountToken === null) continue;
    const { minorUnits } = currencyOrThrow(p.currency);
    const v = volume.get(p.currency) ?? tally();
    v.count += 1;
    v.a += toUnits(p.amount, minorUnits);
    v.b += toUnits(p.serviceFee, minorUnits);
    v.c += toUnits(p.merchantFee, minorUnits);
    volume.set(p.currency, v);
    const tokenUnits = toUnits(p.amountToken, TOKEN_SCALE);
    const t = byToken.get(p.token) ?? tally();
    t.count += 1;
    t.a += tokenUnits;
    byToken.set(p.token, t);
    const ch = byChain.get(p.chainId) ?? tally();
    ch.count += 1;
    ch.a += tokenUnits;
    byChain.set(p.chainId, ch);
  }
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    payments: { total, byStatus },
    volume: [...volume.entries()]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([currency, v]) => {
        const scale = currencyOrThrow(currency).minorUnits;
        return { currency: wireCurrency(currency), count: v.count, amount: formatUnits(v.a, scale), serviceFee: formatUnits(v.b, scale), merchantFee: formatUnits(v.c, scale) };
      }),
    byToken: TOKENS.filter((t) => byToken.has(t)).map((token) => {
      const t = byToken.get(token) as Tally;
      return { token, count: t.count, amountToken: formatUnits(t.a, TOKEN_SCALE) };
    }),
    byChain: CHAIN_IDS.filter((id) => byChain.has(id)).map((chainId) => {
      const ch = byChain.get(chainId) as Tally;
      return { chainId: wireChainId(chainId), count: ch.count, amountToken: formatUnits(ch.a, TOKEN_SCALE) };
    }),
  } satisfies AnalyticsSummary;
}
