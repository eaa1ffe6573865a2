// The suite's fee oracle (conformance/support/fee-oracle.ts) must accept every exact split and
// reject every broken one, or the fee check could pass a wrong implementation or fail a right one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFees } from '@stablepay/conformance/support/fee-oracle';
import { formatUnits, parseDecimal, toUnits } from '@stablepay/conformance/facts/decimal';
import type { CreateBody, Payment } from '@stablepay/conformance/support/payments';

/** Independent reference split: half-up fee, largest remainder over gross shares (ties: first). */
function referenceSplit(amount: bigint, grosses: bigint[]): { fee: bigint; nets: bigint[] } {
  const fee = (amount * 5n * 2n + 1000n) / 2000n;
  const exact = grosses.map((g) => fee * g);
  const floors = exact.map((e) => e / amount);
  let left = fee - floors.reduce((a, b) => a + b, 0n);
  const order = exact.map((e, i) => ({ i, rem: e % amount })).sort((a, b) => (b.rem > a.rem ? 1 : b.rem < a.rem ? -1 : a.i - b.i));
  const shares = [...floors];
  for (const { i } of order) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  return { fee, nets: grosses.map((g, i) => g - shares[i]!) };
}

const scenario = fc
  .record({
    minor: fc.constantFrom(0, 2),
    amount: fc.bigInt(100n, 10n ** 14n),
    weights: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 5 }),
    merchantWeight: fc.integer({ min: 0, max: 100 }),
  })
  .map(({ minor, amount, weights, merchantWeight }) => {
    const total = BigInt(weights.reduce((a, b) => a + b, 0) + merchantWeight);
    const sellers = weights.map((w) => (amount * BigInt(w)) / total).map((u) => (u === 0n ? 1n : u));
    const merchant = amount - sellers.reduce((a, b) => a + b, 0n);
    return { minor, amount, sellers, merchant };
  })
  .filter(({ merchant }) => merchant >= 0n);

function build(s: { minor: number; amount: bigint; sellers: bigint[]; merchant: bigint }) {
  const { fee, nets } = referenceSplit(s.amount, [s.merchant, ...s.sellers]);
  const f = (u: bigint) => formatUnits(u, s.minor);
  const request: CreateBody = {
    amount: f(s.amount),
    currency: 'X',
    ...(s.sellers.length ? { sellers: s.sellers.map((u, i) => ({ address: `0x${String(i).padStart(40, '0')}`, amount: f(u) })) } : {}),
  };
  const payment = {
    amount: f(s.amount),
    serviceFee: f(fee),
    merchantFee: f(nets[0]!),
    sellers: s.sellers.length ? nets.slice(1).map((n, i) => ({ address: `0x${i}`, amount: f(n) })) : null,
  } as Payment;
  return { request, payment };
}

describe('fee oracle', () => {
  it('accepts the exact split of every payment', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { request, payment } = build(s);
        expect(checkFees(request, payment, s.minor)).toEqual([]);
      }),
    );
  });

  it('rejects any payment whose parts do not add up', () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom(-1n, 1n), (s, delta) => {
        const { request, payment } = build(s);
        const broken = { ...payment, merchantFee: formatUnits(toUnits(payment.merchantFee, s.minor) + delta, s.minor) };
        fc.pre(!broken.merchantFee.startsWith('-'));
        expect(checkFees(request, broken, s.minor).map((v) => v.property)).toContain('identity');
      }),
    );
  });

  it('rejects a service fee more than one minor unit off 0.5 %, even when the parts add up', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.sellers.length === 0),
        (s) => {
          const { request, payment } = build(s);
          const fee = toUnits(payment.serviceFee, s.minor) + 2n;
          const broken = { ...payment, serviceFee: formatUnits(fee, s.minor), merchantFee: formatUnits(s.amount - fee, s.minor) };
          fc.pre(s.amount - fee >= 0n);
          const props = checkFees(request, broken, s.minor).map((v) => v.property);
          expect(props).toContain('service-fee');
          expect(props).not.toContain('identity');
        },
      ),
    );
  });

  it('accepts only the exact fee when 0.5 % is exact in minor units: one unit off fails', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.sellers.length === 0 && (s.amount * 5n) % 1000n === 0n),
        fc.constantFrom(-1n, 1n),
        (s, delta) => {
          const { request, payment } = build(s);
          const fee = toUnits(payment.serviceFee, s.minor) + delta;
          fc.pre(fee >= 0n && s.amount - fee >= 0n);
          const broken = { ...payment, serviceFee: formatUnits(fee, s.minor), merchantFee: formatUnits(s.amount - fee, s.minor) };
          const props = checkFees(request, broken, s.minor).map((v) => v.property);
          expect(props).toContain('service-fee');
          expect(props).not.toContain('identity');
        },
      ),
    );
  });

  it('accepts the floor and the ceiling of an inexact 0.5 % (which one is the assumed half-up rule)', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.sellers.length === 0 && (s.amount * 5n) % 1000n !== 0n),
        fc.boolean(),
        (s, up) => {
          const { request, payment } = build(s);
          const fee = (s.amount * 5n) / 1000n + (up ? 1n : 0n);
          const variant = { ...payment, serviceFee: formatUnits(fee, s.minor), merchantFee: formatUnits(s.amount - fee, s.minor) };
          expect(
            checkFees(request, variant, s.minor)
              .map((v) => v.property)
              .filter((p) => p !== 'half-up'),
          ).toEqual([]);
        },
      ),
    );
  });

  it('rejects a fee taken from one recipient only', () => {
    fc.assert(
      fc.property(
        scenario.filter((s) => s.sellers.length >= 1 && s.merchant > 0n && s.amount >= 10_000n),
        (s) => {
          const { request, payment } = build(s);
          const fee = toUnits(payment.serviceFee, s.minor);
          fc.pre(fee >= 4n);
          // Whole fee from the merchant, sellers paid gross: parts add up, but not proportionally.
          const broken = {
            ...payment,
            merchantFee: formatUnits(s.merchant - fee, s.minor),
            sellers: request.sellers!.map((x) => ({ ...x })),
          };
          // A seller whose part is n units or more (n recipients) bears none of it: no rounding of n parts explains that.
          fc.pre(s.merchant - fee >= 0n && s.sellers.some((u) => (fee * u) / s.amount >= BigInt(s.sellers.length + 1)));
          const props = checkFees(request, broken, s.minor).map((v) => v.property);
          expect(props).toContain('proportional');
          expect(props).not.toContain('identity');
        },
      ),
    );
  });

  it('flags non-decimal fee strings and amounts with too many decimals', () => {
    const { request, payment } = build({ minor: 2, amount: 10000n, sellers: [], merchant: 10000n });
    expect(checkFees(request, { ...payment, serviceFee: '0.5e0' }, 2)[0]!.property).toBe('format');
    expect(checkFees(request, { ...payment, serviceFee: '0.500' }, 2).map((v) => v.property)).toEqual(['minor-format']);
    expect(checkFees(request, { ...payment, serviceFee: '0.5001' }, 2)[0]!.property).toBe('format');
  });
});

describe('decimal helpers', () => {
  it('round-trip minor units through strings', () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 10n ** 20n), fc.integer({ min: 0, max: 6 }), (units, scale) => {
        const text = formatUnits(units, scale);
        expect(toUnits(text, scale)).toBe(units);
        expect(parseDecimal(text).scale).toBe(scale);
      }),
    );
  });
});
