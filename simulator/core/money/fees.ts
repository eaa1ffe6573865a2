// The 0.5 % service fee and its split over the merchant and seller shares (decisions.md, Payment).
import { divRoundHalfUp, sum } from './decimal.ts';

const FEE_NUMERATOR = 5n;
const FEE_DENOMINATOR = 1000n;

/** 0.5 % of `amount` (minor units), rounded half-up to the minor unit. */
export function serviceFeeOf(amount: bigint): bigint {
  return divRoundHalfUp(amount * FEE_NUMERATOR, FEE_DENOMINATOR);
}

/**
 * Split `fee` over `shares` in proportion to the shares, largest-remainder method: every share gets
 * the floor of its exact quota, then the leftover units go to the largest remainders (ties: lower
 * index first, i.e. merchant first, then sellers in request order). The parts always sum to `fee`.
 */
export function splitProportionally(fee: bigint, shares: readonly bigint[]): bigint[] {
  const total = sum(shares);
  if (total <= 0n) return shares.map(() => 0n);
  const parts = shares.map((share) => (fee * share) / total);
  let leftover = fee - sum(parts);
  const order = shares
    .map((share, index) => ({ index, remainder: (fee * share) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (leftover === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return parts;
}

export interface FeeBreakdown {
  serviceFee: bigint;
  /** Merchant's net amount after its part of the fee. */
  merchantFee: bigint;
  /** Each seller's net amount after its part of the fee, in request order. */
  sellers: bigint[];
}

/**
 * Fees for a payment of `amount` whose gross shares are `merchantGross` and `sellerGross`
 * (merchantGross + Σ sellerGross = amount), all in minor units.
 * Guarantees merchantFee + Σ sellers + serviceFee = amount exactly.
 */
export function computeFees(amount: bigint, merchantGross: bigint, sellerGross: readonly bigint[]): FeeBreakdown {
  if (merchantGross + sum(sellerGross) !== amount) throw new RangeError('shares must add up to the amount');
  const serviceFee = serviceFeeOf(amount);
  const [merchantPart = 0n, ...sellerParts] = splitProportionally(serviceFee, [merchantGross, ...sellerGross]);
  return {
    serviceFee,
    merchantFee: merchantGross - merchantPart,
    sellers: sellerGross.map((gross, i) => gross - (sellerParts[i] ?? 0n)),
  };
}
