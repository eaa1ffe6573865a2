// GET /v1/analytics body: counts by status, SUCCESSFUL volume per currency, and token amounts
// split by stablecoin and by chain. Sums use bigint units, never JS numbers.
//
// A payment's part of a summary is its `contribution`; a `SummaryTally` adds (and takes back)
// contributions and merges with other tallies, so a summary can be read from pre-aggregated
// tallies (tallies.ts) as well as from a scan (`summarize`, the reference those must equal).
import { CHAIN_IDS, TOKENS } from '@stablepay/contract/chain-table';
import { currencyOrThrow } from '../reference-data/currencies.ts';
import { formatUnits, toUnits } from '../money/decimal.ts';
import { TOKEN_SCALE } from '../money/token-amounts.ts';
import type { Payment, PaymentStatus } from '../payments/types.ts';
import { PAYMENT_STATUSES } from '../payments/types.ts';
import type { Analytics as AnalyticsSummary } from '@stablepay/contract/types';
import { wireChainId, wireCurrency } from '../support/wire-enums.ts';

export type { AnalyticsSummary };

/** What one payment adds to a summary: its status, and for a settled payment its sums. */
export interface Contribution {
  status: PaymentStatus;
  settled: Settled | null;
}

interface Settled {
  /** The (currency, token, chain) group it is summed in. */
  key: string;
  currency: string;
  amount: bigint;
  serviceFee: bigint;
  merchantFee: bigint;
  token: string;
  chainId: number;
  amountToken: bigint;
}

const groupKey = (currency: string, token: string, chainId: number): string => `${currency} ${token} ${chainId}`;

/**
 * A payment's contribution. Throws (RangeError) when a settled payment's amounts do not parse in
 * its currency's minor units, which a validated payment never does.
 */
export function contribution(p: Payment): Contribution {
  if (p.status !== 'SUCCESSFUL' || p.token === null || p.chainId === null || p.amountToken === null)
    return { status: p.status, settled: null };
  const { minorUnits } = currencyOrThrow(p.currency);
  return {
    status: p.status,
    settled: {
      key: groupKey(p.currency, p.token, p.chainId),
      currency: p.currency,
      amount: toUnits(p.amount, minorUnits),
      serviceFee: toUnits(p.serviceFee, minorUnits),
      merchantFee: toUnits(p.merchantFee, minorUnits),
      token: p.token,
      chainId: p.chainId,
      amountToken: toUnits(p.amountToken, TOKEN_SCALE),
    },
  };
}

/** The sums of the settled payments of one (currency, token, chain). */
interface Group {
  currency: string;
  token: string;
  chainId: number;
  count: number;
  amount: bigint;
  serviceFee: bigint;
  merchantFee: bigint;
  amountToken: bigint;
}

interface Sums {
  count: number;
  amount: bigint;
  serviceFee: bigint;
  merchantFee: bigint;
  amountToken: bigint;
}

const STATUS_INDEX = new Map<PaymentStatus, number>(PAYMENT_STATUSES.map((s, i) => [s, i]));

function groupIn(groups: Map<string, Group>, key: string, currency: string, token: string, chainId: number): Group {
  let group = groups.get(key);
  if (!group) {
    group = { currency, token, chainId, count: 0, amount: 0n, serviceFee: 0n, merchantFee: 0n, amountToken: 0n };
    groups.set(key, group);
  }
  return group;
}

function sumInto<K>(map: Map<K, Sums>, key: K, g: Group): void {
  let sums = map.get(key);
  if (!sums) {
    sums = { count: 0, amount: 0n, serviceFee: 0n, merchantFee: 0n, amountToken: 0n };
    map.set(key, sums);
  }
  sums.count += g.count;
  sums.amount += g.amount;
  sums.serviceFee += g.serviceFee;
  sums.merchantFee += g.merchantFee;
  sums.amountToken += g.amountToken;
}

/**
 * Counts and sums of a set of payments. Settled sums are kept per (currency, token, chain), one
 * small map that exists only once something settled (most tallies are counts only), and split by
 * currency, token and chain when the summary is written.
 */
export class SummaryTally {
  total = 0;
  readonly byStatus: number[] = PAYMENT_STATUSES.map(() => 0);
  settled: Map<string, Group> | undefined;

  /** Add a contribution (sign 1) or take one back (sign -1). A group whose count drops to 0 is removed. */
  add(c: Contribution, sign: 1 | -1 = 1): void {
    this.total += sign;
    const i = STATUS_INDEX.get(c.status) as number;
    this.byStatus[i] = (this.byStatus[i] as number) + sign;
    const s = c.settled;
    if (!s) return;
    const g = groupIn((this.settled ??= new Map()), s.key, s.currency, s.token, s.chainId);
    g.count += sign;
    if (sign > 0) {
      g.amount += s.amount;
      g.serviceFee += s.serviceFee;
      g.merchantFee += s.merchantFee;
      g.amountToken += s.amountToken;
    } else {
      g.amount -= s.amount;
      g.serviceFee -= s.serviceFee;
      g.merchantFee -= s.merchantFee;
      g.amountToken -= s.amountToken;
    }
    if (g.count === 0) this.settled.delete(s.key);
  }

  /** Add every payment counted in `other`. */
  merge(other: SummaryTally): void {
    this.total += other.total;
    for (let i = 0; i < this.byStatus.length; i += 1) this.byStatus[i] = (this.byStatus[i] as number) + (other.byStatus[i] as number);
    if (!other.settled) return;
    for (const [key, o] of other.settled) {
      const g = groupIn((this.settled ??= new Map()), key, o.currency, o.token, o.chainId);
      g.count += o.count;
      g.amount += o.amount;
      g.serviceFee += o.serviceFee;
      g.merchantFee += o.merchantFee;
      g.amountToken += o.amountToken;
    }
  }

  /** The response body for the window [from, to]. */
  toSummary(from: number, to: number): AnalyticsSummary {
    const byStatus = Object.fromEntries(PAYMENT_STATUSES.map((s, i) => [s, this.byStatus[i]])) as Record<PaymentStatus, number>;
    const volume = new Map<string, Sums>();
    const byToken = new Map<string, Sums>();
    const byChain = new Map<number, Sums>();
    for (const g of this.settled?.values() ?? []) {
      if (g.count === 0) continue;
      sumInto(volume, g.currency, g);
      sumInto(byToken, g.token, g);
      sumInto(byChain, g.chainId, g);
    }
    return {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      payments: { total: this.total, byStatus },
      volume: [...volume]
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([currency, v]) => {
          const scale = currencyOrThrow(currency).minorUnits;
          return {
            currency: wireCurrency(currency),
            count: v.count,
            amount: formatUnits(v.amount, scale),
            serviceFee: formatUnits(v.serviceFee, scale),
            merchantFee: formatUnits(v.merchantFee, scale),
          };
        }),
      byToken: TOKENS.filter((t) => byToken.has(t)).map((token) => {
        const t = byToken.get(token) as Sums;
        return { token, count: t.count, amountToken: formatUnits(t.amountToken, TOKEN_SCALE) };
      }),
      byChain: CHAIN_IDS.filter((id) => byChain.has(id)).map((chainId) => {
        const ch = byChain.get(chainId) as Sums;
        return { chainId: wireChainId(chainId), count: ch.count, amountToken: formatUnits(ch.amountToken, TOKEN_SCALE) };
      }),
    } satisfies AnalyticsSummary;
  }
}

/** Summarise payments created within [from, to] (milliseconds, inclusive) by reading each of them. */
export function summarize(payments: Iterable<Payment>, from: number, to: number): AnalyticsSummary {
  const tally = new SummaryTally();
  for (const p of payments) {
    if (p.createdAt < from || p.createdAt > to) continue;
    tally.add(contribution(p));
  }
  return tally.toSummary(from, to);
}
