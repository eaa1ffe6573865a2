// The `fee-binary-float` fault: the fee arithmetic a hurried implementer writes with JS numbers.
// 0.005 has no exact binary representation and every share is rounded on its own, so the parts
// drift from the amount by a minor unit. Used only when that fault is on; money/ stays bigint.
import type { FeeBreakdown } from '../core/money/fees.ts';

export function computeFeesWithFloats(
  amount: bigint,
  merchantGross: bigint,
  sellerGross: readonly bigint[],
  minorUnits: number,
): FeeBreakdown {
  const scale = 10 ** minorUnits;
  const total = Number(amount) / scale;
  const fee = Math.round(total * 0.005 * scale) / scale;
  const netOf = (gross: bigint): bigint => {
    const share = Number(gross) / scale;
    return BigInt(Math.round((share - (fee * share) / total) * scale));
  };
  return { serviceFee: BigInt(Math.round(fee * scale)), merchantFee: netOf(merchantGross), sellers: sellerGross.map(netOf) };
}
