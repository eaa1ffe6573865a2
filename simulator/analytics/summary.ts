// GET /v1/analytics body: counts by status, SUCCESSFUL volume per currency, and token amounts
// split by stablecoin and by chain. Sums use bigint units, never JS numbers.
//
// A payment's part of a summary is its `contribution`; a `SummaryTally` adds (and takes back)
// contributions and merges with other tallies, so a summary can be read from pre-aggregated
// tallies (tallies.ts) as well as from a scan (`summarize`, the reference those must equal).
import { CHAIN_IDS, TOKENS } from '../reference-data/chains.ts';
import { currencyOrThrow } from '../reference-data/currencies.ts';
import { formatUnits, toUnits } from '../money/decimal.ts';
import { TOKEN_SCALE } from '../money/token-amounts.ts';
import type { Payment, PaymentStatus } from '../payments/types.ts';
import { PAYMENT_STATUSES } from '../payments/types.ts';
import type { Analytics as AnalyticsSummary } from '../../contract/types.ts';
import { wireChainId, wireCurrency } from '../support/wire-enums.ts';

export type { AnalyticsSummary };

/** What one payment adds to a summary: its status, and for a settled payment its sums. */
export interface Contribution {
  status: PaymentStatus;
  settled: Settled | null;
}

interface Settled {
  currency: string;
  amount: bigint;
  serviceFee: bigint;
  merchantFee: bigint;
  token: string;
  chainId: number;
  amountToken: bigint;
}

/**
 * A payment's contribution. Throws (RangeError) when a settled payment's amounts do not parse in
 * its currency's minor units, which a validated payment never does.
 */
export function contribution(p: Payment): Contribution {
  if (p.status !== 'SUCCESSFUL' || p.token === null || p.chainId === null || p.amountToken === null) return { status: p.status, settled: null };
  const { minorUnits } = currencyOrThrow(p.currency);
  return {
    status: p.status,
    settled: {
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

interface Volume {
  count: number;
  amount: bigint;
  serviceFee: bigint;
  merchantFee: bigint;
}

interface TokenSums {
  count: number;
  amountToken: bigint;
}

const STATUS_INDEX = new Map<PaymentStatus, number>(PAYMENT_STATUSES.map((s, i) => [s, i]));

function entry<K, V>(map: Map<K, V>, key: K, fresh: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = fresh();
    map.set(key, value);
  }
  return value;
}

/** Counts and sums of a set of payments. The maps exist only once something settled (most tallies are counts only). */
export class SummaryTally {
  total = 0;
  readonly byStatus: number[] = PAYMENT_STATUSES.map(() => 0);
  volume: Map<string, Volume> | undefined;
  byToken: Map<string, TokenSums> | undefined;
  byChain: Map<number, TokenSums> | undefined;

  /** Add a contribution (sign 1) or take one back (sign -1). An entry whose count drops to 0 is removed. */
  add(c: Contribution, sign: 1 | -1 = 1): void {
    this.total += sign;
    const i = STATUS_INDEX.get(c.status) as number;
    this.byStatus[i] = (this.byStatus[i] as number) + sign;
    const s = c.settled;
    if (!s) return;
    const k = BigInt(sign);
    const v = entry((this.volume ??= new Map()), s.currency, () => ({ count: 0, amount: 0n, serviceFee: 0n, merchantFee: 0n }));
    v.count += sign;
    v.amount += k * s.amount;
    v.serviceFee += k * s.serviceFee;
    v.merchantFee += k * s.merchantFee;
    if (v.count === 0) this.volume.delete(s.currency);
    const t = entry((this.byToken ??= new Map()), s.token, () => ({ count: 0, amountToken: 0n }));
    t.count += sign;
    t.amountToken += k * s.amountToken;
    if (t.count === 0) this.byToken.delete(s.token);
    const ch = entry((this.byChain ??= new Map()), s.chainId, () => ({ count: 0, amountToken: 0n }));
    ch.count += sign;
    ch.amountToken += k * s.amountToken;
    if (ch.count === 0) this.byChain.delete(s.chainId);
  }

  /** Add every payment counted in `other`. */
  merge(other: SummaryTally): void {
    this.total += other.total;
    for (let i = 0; i < this.byStatus.length; i += 1) this.byStatus[i] = (this.byStatus[i] as number) + (other.byStatus[i] as number);
    if (other.volume) {
      for (const [currency, o] of other.volume) {
        const v = entry((this.volume ??= new Map()), currency, () => ({ count: 0, amount: 0n, serviceFee: 0n, merchantFee: 0n }));
        v.count += o.count;
        v.amount += o.amount;
        v.serviceFee += o.serviceFee;
        v.merchantFee += o.merchantFee;
      }
    }
    if (other.byToken) for (const [token, o] of other.byToken) addSums(entry((this.byToken ??= new Map()), token, zeroSums), o);
    if (other.byChain) for (const [chainId, o] of other.byChain) addSums(entry((this.byChain ??= new Map()), chainId, zeroSums), o);
  }

  /** The response body for the window [from, to]. */
  toSummary(from: number, to: number): AnalyticsSummary {
    const byStatus = Object.fromEntries(PAYMENT_STATUSES.map((s, i) => [s, this.byStatus[i]])) as Record<PaymentStatus, number>;
    const volume = [...(this.volume ?? [])].filter(([, v]) => v.count > 0);
    const byToken = this.byToken ?? new Map<string, TokenSums>();
    const byChain = this.byChain ?? new Map<number, TokenSums>();
    return {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      payments: { total: this.total, byStatus },
      volume: volume
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([currency, v]) => {
          const scale = currencyOrThrow(currency).minorUnits;
          return { currency: wireCurrency(currency), count: v.count, amount: formatUnits(v.amount, scale), serviceFee: formatUnits(v.serviceFee, scale), merchantFee: formatUnits(v.merchantFee, scale) };
        }),
      byToken: TOKENS.filter((t) => (byToken.get(t)?.count ?? 0) > 0).map((token) => {
        const t = byToken.get(token) as TokenSums;
        return { token, count: t.count, amountToken: formatUnits(t.amountToken, TOKEN_SCALE) };
      }),
      byChain: CHAIN_IDS.filter((id) => (byChain.get(id)?.count ?? 0) > 0).map((chainId) => {
        const ch = byChain.get(chainId) as TokenSums;
        return { chainId: wireChainId(chainId), count: ch.count, amountToken: formatUnits(ch.amountToken, TOKEN_SCALE) };
      }),
    } satisfies AnalyticsSummary;
  }
}

const zeroSums = (): TokenSums => ({ count: 0, amountToken: 0n });

function addSums(into: TokenSums, from: TokenSums): void {
  into.count += from.count;
  into.amountToken += from.amountToken;
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
