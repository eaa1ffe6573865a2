// fast-check arbitraries for valid create-payment requests: every currency, amounts from the
// currency minimum to the maximum in every accepted spelling, optional sellers (up to the maximum)
// with or without merchantAmount, accepted chain/token subsets that keep at least one pair.
import fc from 'fast-check';
import { allowedPairs, currency as currencyFact } from '../facts/fixtures.ts';
import { formatUnits, toUnits } from '../facts/decimal.ts';
import type { CreateBody } from '../support/payments.ts';
import type { CreateRules } from './create-rules.ts';

/** A create request whose expiresAt, if any, is relative to the implementation's clock at send time. */
export interface CreateCase {
  body: CreateBody;
  expiresInMs?: number;
}

export function materialize(createCase: CreateCase, nowMs: number): CreateBody {
  if (createCase.expiresInMs === undefined) return { ...createCase.body };
  return { ...createCase.body, expiresAt: new Date(nowMs + createCase.expiresInMs).toISOString() };
}

/** Writes `units` minor units in one of the accepted spellings (100, 100.5, 100.50 are all valid). */
export function spellAmount(units: bigint, minorUnits: number, style: number): string {
  if (minorUnits === 0) return units.toString();
  const full = formatUnits(units, minorUnits);
  const trimmedZeros = full.replace(/0+$/, '');
  const shortest = trimmedZeros.endsWith('.') ? trimmedZeros.slice(0, -1) : trimmedZeros;
  return style % 2 === 0 ? full : shortest;
}

/** `minimum`: the smallest amount the implementation accepts (default: the simulator's, from the fixtures). */
export function amountUnitsArb(code: string, maximum: string, floorUnits = 0n, minimum?: string): fc.Arbitrary<bigint> {
  const fact = currencyFact(code);
  const min = toUnits(minimum ?? fact.minimum, fact.minorUnits);
  const lower = min > floorUnits ? min : floorUnits;
  const max = toUnits(maximum, fact.minorUnits);
  return fc.oneof(
    { weight: 5, arbitrary: fc.bigInt(lower, lower * 1000n < max ? lower * 1000n : max) },
    { weight: 2, arbitrary: fc.bigInt(lower, max) },
    { weight: 1, arbitrary: fc.constantFrom(lower, max) },
  );
}

const addressArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`);

export interface SellersPlan {
  sellers: { address: string; units: bigint }[];
  merchantUnits: bigint;
}

/** Splits `amountUnits` into 1..max sellers (each >= 1 unit) and a merchant remainder >= 0. */
export function sellersPlanArb(amountUnits: bigint, max: number): fc.Arbitrary<SellersPlan> {
  return fc
    .record({
      weights: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: max }),
      merchantWeight: fc.integer({ min: 0, max: 1000 }),
      addresses: fc.uniqueArray(addressArb, { minLength: max, maxLength: max }),
    })
    .filter(({ weights }) => BigInt(weights.length) <= amountUnits)
    .map(({ weights, merchantWeight, addresses }) => {
      const total = BigInt(weights.reduce((a, b) => a + b, 0) + merchantWeight);
      let sellers = weights.map((w, i) => ({ address: addresses[i]!, units: (amountUnits * BigInt(w)) / total }));
      // Every seller gets at least one minor unit; take it from the largest.
      sellers = sellers.map((s) => ({ ...s, units: s.units === 0n ? 1n : s.units }));
      let sum = sellers.reduce((a, s) => a + s.units, 0n);
      while (sum > amountUnits) {
        const largest = sellers.reduce((best, s) => (s.units > best.units ? s : best));
        largest.units -= 1n;
        sum -= 1n;
      }
      return { sellers, merchantUnits: amountUnits - sum };
    });
}

export interface ValidCreateOptions {
  currencies?: string[];
  /** 'never', 'always' or 'maybe' add sellers. */
  sellers?: 'never' | 'always' | 'maybe';
  /** Add title, externalId, chain/token subsets and expiresAt at random. */
  optionalFields?: boolean;
  /**
   * The per-currency minimums the run established (premise payments.minimum-amounts); a currency with none (no
   * amount accepted at all) is left out. Default: the simulator's.
   */
  minimums?: Record<string, string | null>;
}

export function validCreateCase(rules: CreateRules, options: ValidCreateOptions = {}): fc.Arbitrary<CreateCase> {
  const minimums = options.minimums ?? {};
  const currencies = (options.currencies ?? rules.currencies).filter((code) => minimums[code] !== null);
  const sellersMode = options.sellers ?? 'maybe';
  return fc.constantFrom(...currencies).chain((code) => {
    const { minorUnits } = currencyFact(code);
    const floor = sellersMode === 'always' ? BigInt(rules.sellersMax) : 0n;
    return amountUnitsArb(code, rules.amountMaximum, floor, minimums[code] ?? undefined).chain((amountUnits) =>
      fc
        .record({
          style: fc.nat(3),
          sellers:
            sellersMode === 'never'
              ? fc.constant(null)
              : sellersMode === 'always'
                ? sellersPlanArb(amountUnits, rules.sellersMax)
                : fc.option(sellersPlanArb(amountUnits, rules.sellersMax), { nil: null }),
          withMerchantAmount: fc.boolean(),
          optional: options.optionalFields ? optionalFieldsArb(rules) : fc.constant({}),
        })
        .map(({ style, sellers, withMerchantAmount, optional }): CreateCase => {
          const body: CreateBody = { amount: spellAmount(amountUnits, minorUnits, style), currency: code };
          if (sellers) {
            body.sellers = sellers.sellers.map((s, i) => ({ address: s.address, amount: spellAmount(s.units, minorUnits, style + i) }));
            // A zero remainder must be spelled out: omitted merchantAmount needs a positive remainder.
            if (withMerchantAmount || sellers.merchantUnits === 0n)
              body.merchantAmount = spellAmount(sellers.merchantUnits, minorUnits, style + 1);
          }
          const { expiresInMs, ...fields } = optional as Partial<CreateBody> & { expiresInMs?: number };
          return { body: { ...body, ...fields }, ...(expiresInMs !== undefined ? { expiresInMs } : {}) };
        }),
    );
  });
}

let externalIdCounter = 0;

function optionalFieldsArb(rules: CreateRules): fc.Arbitrary<Partial<CreateBody> & { expiresInMs?: number }> {
  const chainsTokens = fc
    .record({ chains: fc.subarray(rules.chains, { minLength: 1 }), tokens: fc.subarray(rules.tokens, { minLength: 1 }) })
    .filter(({ chains, tokens }) => allowedPairs(chains, tokens).length > 0);
  const externalIdChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-'.split(''));
  return fc
    .record(
      {
        title: fc.string({ maxLength: 80 }),
        externalIdStem: fc.string({ unit: externalIdChars, minLength: 1, maxLength: 16 }),
        chainsTokens,
        expiresInMs: fc.integer({ min: 16 * 60_000, max: 30 * 86_400_000 - 120_000 }),
      },
      { requiredKeys: [] },
    )
    .map(({ title, externalIdStem, chainsTokens: ct, expiresInMs }) => {
      const out: Partial<CreateBody> & { expiresInMs?: number } = {};
      if (title !== undefined) out.title = title;
      // A unique suffix keeps generated externalIds from colliding with live payments of earlier runs.
      if (externalIdStem !== undefined)
        out.externalId = `${externalIdStem}.${(Date.now() + externalIdCounter++).toString(36)}`.slice(-rules.externalIdMaxLength);
      if (ct) {
        out.acceptedChains = ct.chains;
        out.acceptedTokens = ct.tokens;
      }
      if (expiresInMs !== undefined) out.expiresInMs = expiresInMs;
      return out;
    });
}
