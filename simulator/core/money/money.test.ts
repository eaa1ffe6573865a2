import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeFees, serviceFeeOf, splitProportionally } from './fees.ts';
import { divCeil, divRoundHalfUp, formatUnits, toUnits } from './decimal.ts';
import { computeTokenAmounts, fiatToToken } from './token-amounts.ts';

describe('decimal units', () => {
  it('adds 0.1 + 0.2 exactly where JS numbers do not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(formatUnits(toUnits('0.1', 2) + toUnits('0.2', 2), 2)).toBe('0.30');
    expect(formatUnits(toUnits('1000000000000', 2) - toUnits('0.01', 2), 2)).toBe('999999999999.99');
  });

  it('parses and formats at a scale', () => {
    expect(toUnits('100.5', 2)).toBe(10050n);
    expect(toUnits('100', 0)).toBe(100n);
    expect(formatUnits(5n, 2)).toBe('0.05');
    expect(formatUnits(0n, 0)).toBe('0');
    expect(formatUnits(1_080_000n, 6)).toBe('1.080000');
    expect(() => toUnits('1.234', 2)).toThrow(RangeError);
    expect(() => toUnits('1e3', 2)).toThrow(RangeError);
  });

  it('rounds divisions as named', () => {
    expect(divCeil(10n, 3n)).toBe(4n);
    expect(divCeil(9n, 3n)).toBe(3n);
    expect(divRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divRoundHalfUp(15n, 10n)).toBe(2n);
  });

  it('round-trips every two-decimal string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 100_000_000_000_000n }), (units) => {
        expect(toUnits(formatUnits(units, 2), 2)).toBe(units);
      }),
    );
  });
});

describe('service fee', () => {
  it('is 0.5 % rounded half-up to the minor unit', () => {
    expect(serviceFeeOf(10000n)).toBe(50n); // 100.00 -> 0.50
    expect(serviceFeeOf(100n)).toBe(1n); // 1.00 -> 0.005 -> 0.01 (half up)
    expect(serviceFeeOf(99n)).toBe(0n); // 0.99 -> 0.00495 -> 0.00
    expect(serviceFeeOf(150n)).toBe(1n); // JPY 150 -> 0.75 -> 1
    expect(serviceFeeOf(16000n)).toBe(80n); // IDR 16000 -> 80
    expect(serviceFeeOf(100_000_000_000_000n)).toBe(500_000_000_000n);
  });

  it('splits proportionally by largest remainder, merchant first on ties', () => {
    expect(splitProportionally(3n, [1n, 1n, 1n])).toEqual([1n, 1n, 1n]);
    expect(splitProportionally(1n, [1n, 1n])).toEqual([1n, 0n]);
    expect(splitProportionally(2n, [1n, 1n, 1n])).toEqual([1n, 1n, 0n]);
    expect(splitProportionally(10n, [0n, 700n, 300n])).toEqual([0n, 7n, 3n]);
  });

  const amountArb = fc.bigInt({ min: 1n, max: 100_000_000_000_000n });
  const scenario = amountArb.chain((amount) =>
    fc.array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 0, maxLength: 5 }).map((weights) => {
      // Turn weights into gross shares that add up to `amount` exactly, sellers > 0.
      const total = weights.reduce((a, w) => a + w + 1n, 1n);
      const sellers = weights.map((w) => ((w + 1n) * amount) / total).filter((s) => s > 0n);
      const merchant = amount - sellers.reduce((a, s) => a + s, 0n);
      return { amount, merchant, sellers };
    }),
  );

  it('merchantFee + Σ sellers + serviceFee = amount, exactly', () => {
    fc.assert(
      fc.property(scenario, ({ amount, merchant, sellers }) => {
        const fees = computeFees(amount, merchant, sellers);
        expect(fees.merchantFee + fees.sellers.reduce((a, s) => a + s, 0n) + fees.serviceFee).toBe(amount);
        expect(fees.merchantFee >= 0n && fees.sellers.every((s) => s >= 0n)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('|serviceFee − 0.005·amount| ≤ one minor unit, for 2- and 0-decimal currencies', () => {
    fc.assert(
      fc.property(amountArb, (amount) => {
        // Compare in thousandths of a minor unit: 0.005·amount = 5·amount thousandths.
        const diff = serviceFeeOf(amount) * 1000n - 5n * amount;
        expect(diff <= 1000n && diff >= -1000n).toBe(true);
        expect(diff <= 500n && diff > -500n).toBe(true); // half-up is even tighter
      }),
      { numRuns: 2000 },
    );
  });
});

describe('token amounts', () => {
  it('rounds fiat * rate up to six decimals', () => {
    expect(fiatToToken(10000n, 2, 1_000_000n)).toBe(100_000_000n); // 100.00 USD at 1 -> 100 USDC
    expect(fiatToToken(1n, 2, 1_080_000n)).toBe(10_800n); // 0.01 EUR -> 0.0108
    expect(fiatToToken(150n, 0, 6_700n)).toBe(1_005_000n); // 150 JPY at 0.0067 -> 1.005
    expect(fiatToToken(1n, 0, 63n)).toBe(63n);
    expect(fiatToToken(1n, 2, 1n)).toBe(1n); // 0.01 * 0.000001 = 1e-8 -> up to 0.000001
  });

  it('parts add up to amountToken and none is negative', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10_000_000_000n }),
        fc.array(fc.bigInt({ min: 1n, max: 1_000_000n }), { maxLength: 5 }),
        fc.constantFrom(0, 2),
        fc.bigInt({ min: 1n, max: 10_000_000n }),
        (merchant, sellerGross, minorUnits, rateMicro) => {
          const amount = merchant - 1n + sellerGross.reduce((a, s) => a + s, 0n);
          const fees = computeFees(amount, merchant - 1n, sellerGross);
          const t = computeTokenAmounts({ amount, serviceFee: fees.serviceFee, sellers: fees.sellers, minorUnits, rateMicro });
          expect(t.merchantFeeToken + t.serviceFeeToken + t.sellersToken.reduce((a, s) => a + s, 0n)).toBe(t.amountToken);
          expect(t.merchantFeeToken >= 0n && t.sellersToken.every((s) => s >= 0n)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
