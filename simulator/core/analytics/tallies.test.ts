import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUnits, toUnits } from '../money/decimal.ts';
import { PAYMENT_STATUSES, type Payment, type PaymentStatus } from '../payments/types.ts';
import { CHAIN_IDS, TOKENS } from '@stablepay/contract/chain-table';
import { summarize } from './summary.ts';
import { AnalyticsTallies, TALLY_LEVELS_MS } from './tallies.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const CURRENCIES = [
  { code: 'USD', minorUnits: 2 },
  { code: 'EUR', minorUnits: 2 },
  { code: 'JPY', minorUnits: 0 },
] as const;
const MERCHANTS = ['m1', 'm2'];

/** A time near the bucket boundaries the tallies split on (ms either side of 5 minutes, an hour or a day), or anywhere in 5 days. */
const instant = fc.oneof(
  fc.integer({ min: 0, max: 5 * DAY }).map((ms) => T0 + ms),
  fc
    .tuple(fc.integer({ min: 0, max: 5 }), fc.constantFrom(MINUTE, 5 * MINUTE, HOUR, DAY), fc.integer({ min: -2, max: 2 }))
    .map(([n, width, ms]) => T0 + n * width + ms),
);

function record(
  id: string,
  merchantId: string,
  createdAt: number,
  status: PaymentStatus,
  fiat: { code: string; minorUnits: number; units: bigint },
  settle: { chainId: number; token: (typeof TOKENS)[number]; micro: bigint } | null,
): Payment {
  const fee = fiat.units / 200n;
  const format = (units: bigint): string => formatUnits(units, fiat.minorUnits);
  return {
    id,
    merchantId,
    origin: 'api',
    status,
    amount: format(fiat.units),
    currency: fiat.code,
    title: null,
    externalId: null,
    acceptedChains: [],
    acceptedTokens: [],
    serviceFee: format(fee),
    merchantFee: format(fiat.units - fee),
    sellers: null,
    // A settlement is known once the payment is submitted; the summary counts it only when SUCCESSFUL.
    chainId: settle?.chainId ?? null,
    token: settle?.token ?? null,
    exchangeRate: settle ? '1.000000' : null,
    amountToken: settle ? formatUnits(settle.micro, 6) : null,
    serviceFeeToken: null,
    merchantFeeToken: null,
    sellersToken: null,
    settlementTransfers: null,
    gasActual: null,
    txHash: null,
    error: null,
    expiresAt: createdAt + HOUR,
    paidAt: null,
    createdAt,
    updatedAt: createdAt,
  };
}

const step = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    merchant: fc.constantFrom(...MERCHANTS),
    at: instant,
    currency: fc.constantFrom(...CURRENCIES),
    units: fc.bigInt({ min: 1n, max: 10n ** 9n }),
  }),
  fc.record({
    kind: fc.constant('change' as const),
    // Which existing payment (modulo their number), to which status; any status to any other, so
    // the tallies are proven on the diff of two records, whatever the transition table allows.
    pick: fc.nat(),
    status: fc.constantFrom(...PAYMENT_STATUSES),
    settle: fc.option(
      fc.record({
        chainId: fc.constantFrom(...CHAIN_IDS),
        token: fc.constantFrom(...TOKENS),
        micro: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      }),
      { nil: null },
    ),
  }),
);

type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Runs a history through the tallies; the model is every payment's latest record. */
function play(steps: Step[]): { tallies: AnalyticsTallies; latest: Map<string, Payment> } {
  const tallies = new AnalyticsTallies();
  const latest = new Map<string, Payment>();
  const ids: string[] = [];
  const fiatOf = new Map<string, { code: string; minorUnits: number; units: bigint }>();
  for (const s of steps) {
    if (s.kind === 'create') {
      const id = `p${ids.length}`;
      const fiat = { code: s.currency.code, minorUnits: s.currency.minorUnits, units: s.units };
      const p = record(id, s.merchant, s.at, 'ACTIVE', fiat, null);
      ids.push(id);
      fiatOf.set(id, fiat);
      latest.set(id, p);
      tallies.changed(undefined, p);
    } else if (ids.length > 0) {
      const id = ids[s.pick % ids.length] as string;
      const previous = latest.get(id) as Payment;
      const next = record(id, previous.merchantId, previous.createdAt, s.status, fiatOf.get(id)!, s.settle);
      latest.set(id, next);
      tallies.changed(previous, next);
    }
  }
  return { tallies, latest };
}

/** What the store's time index gives: the merchant's payments created within [from, to]. */
function scanOf(latest: Map<string, Payment>, merchantId: string, calls: [number, number][] = []) {
  return (from: number, to: number): Payment[] => {
    calls.push([from, to]);
    return [...latest.values()].filter((p) => p.merchantId === merchantId && p.createdAt >= from && p.createdAt <= to);
  };
}

/**
 * The summary written out longhand, sharing no code with summary.ts: every payment in the window
 * counted by status, the SUCCESSFUL ones summed per currency, token and chain.
 */
function oracle(payments: Iterable<Payment>, from: number, to: number) {
  const inWindow = [...payments].filter((p) => p.createdAt >= from && p.createdAt <= to);
  const settled = inWindow.filter((p) => p.status === 'SUCCESSFUL' && p.token !== null && p.chainId !== null && p.amountToken !== null);
  const scaleOf = (code: string): number => CURRENCIES.find((c) => c.code === code)!.minorUnits;
  const sum = (ps: Payment[], field: (p: Payment) => string, scale: number): string =>
    formatUnits(
      ps.reduce((acc, p) => acc + toUnits(field(p), scale), 0n),
      scale,
    );
  const currencies = [...new Set(settled.map((p) => p.currency))].sort();
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    payments: {
      total: inWindow.length,
      byStatus: Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, inWindow.filter((p) => p.status === s).length])),
    },
    volume: currencies.map((currency) => {
      const ps = settled.filter((p) => p.currency === currency);
      const scale = scaleOf(currency);
      return {
        currency,
        count: ps.length,
        amount: sum(ps, (p) => p.amount, scale),
        serviceFee: sum(ps, (p) => p.serviceFee, scale),
        merchantFee: sum(ps, (p) => p.merchantFee, scale),
      };
    }),
    byToken: TOKENS.map((token) => settled.filter((p) => p.token === token))
      .filter((ps) => ps.length > 0)
      .map((ps) => ({ token: ps[0]!.token, count: ps.length, amountToken: sum(ps, (p) => p.amountToken!, 6) })),
    byChain: CHAIN_IDS.map((chainId) => settled.filter((p) => p.chainId === chainId))
      .filter((ps) => ps.length > 0)
      .map((ps) => ({ chainId: ps[0]!.chainId, count: ps.length, amountToken: sum(ps, (p) => p.amountToken!, 6) })),
  };
}

const window = fc.tuple(instant, instant).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [number, number]);

describe('AnalyticsTallies', () => {
  it('equal a full scan for random histories and windows, and scan only the edges finer than the smallest bucket', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), fc.array(window, { minLength: 1, maxLength: 6 }), (steps, windows) => {
        const { tallies, latest } = play(steps);
        for (const [from, to] of [...windows, [T0 - DAY, T0 + 10 * DAY] as [number, number]]) {
          for (const merchantId of MERCHANTS) {
            const calls: [number, number][] = [];
            const fromTallies = tallies.summary(merchantId, from, to, scanOf(latest, merchantId, calls));
            const all = scanOf(latest, merchantId)(-Infinity, Infinity);
            expect(fromTallies).toEqual(summarize(all, from, to));
            expect(fromTallies).toEqual(oracle(all, from, to));
            // Only the window's two ends finer than the smallest bucket are read from the store:
            // less than twice its width of payments in all, whatever the window.
            const finest = TALLY_LEVELS_MS.at(-1) as number;
            expect(calls.length).toBeLessThanOrEqual(2);
            expect(calls.reduce((sum, [a, b]) => sum + (b - a + 1), 0)).toBeLessThan(2 * finest);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a window of whole days reads no payment at all', () => {
    const tallies = new AnalyticsTallies();
    const latest = new Map<string, Payment>();
    for (let i = 0; i < 500; i += 1) {
      const p = record(
        `p${i}`,
        'm1',
        T0 + i * 7 * MINUTE,
        i % 3 === 0 ? 'SUCCESSFUL' : 'ACTIVE',
        { code: 'USD', minorUnits: 2, units: BigInt(100 + i) },
        i % 3 === 0 ? { chainId: 8453, token: 'USDC', micro: 1_000_000n } : null,
      );
      latest.set(p.id, p);
      tallies.changed(undefined, p);
    }
    const scan = (): Payment[] => {
      throw new Error('scanned');
    };
    const summary = tallies.summary('m1', T0, T0 + 3 * DAY - 1, scan);
    expect(summary).toEqual(summarize(latest.values(), T0, T0 + 3 * DAY - 1));
    expect(summary.payments.total).toBe(500);
    expect(summary.byChain).toEqual([{ chainId: 8453, count: 167, amountToken: '167.000000' }]);
  });

  it('a merchant without payments has an empty summary', () => {
    const summary = new AnalyticsTallies().summary('nobody', T0, T0 + DAY, () => []);
    expect(summary).toEqual(summarize([], T0, T0 + DAY));
    expect(summary.payments.total).toBe(0);
  });

  it('a record whose amounts do not parse turns the merchant to scans, answering exactly as a scan does', () => {
    const tallies = new AnalyticsTallies();
    const good = record('p1', 'm1', T0, 'ACTIVE', { code: 'USD', minorUnits: 2, units: 500n }, null);
    tallies.changed(undefined, good);
    // A settled JPY payment with a fraction (only a deliberately broken create lets one through).
    const bad = {
      ...record('p2', 'm1', T0 + 1, 'SUCCESSFUL', { code: 'JPY', minorUnits: 0, units: 5n }, { chainId: 1, token: 'USDC', micro: 1n }),
      amount: '5.5',
    };
    tallies.changed(undefined, bad);
    const scan = () => [good, bad];
    expect(() => tallies.summary('m1', T0, T0 + DAY, scan)).toThrow(RangeError);
    expect(() => summarize(scan(), T0, T0 + DAY)).toThrow(RangeError);
    // Other merchants keep their tallies.
    const other = record('p3', 'm2', T0, 'ACTIVE', { code: 'USD', minorUnits: 2, units: 500n }, null);
    tallies.changed(undefined, other);
    expect(
      tallies.summary('m2', T0, T0 + DAY - 1, () => {
        throw new Error('scanned');
      }).payments.total,
    ).toBe(1);
  });
});
