// Fiat -> token conversion at a locked rate. Token amounts are whole-token decimals with six places
// (micro units here), rounded up so the merchant is never short (decisions.md, Payment).
import { divCeil, pow10, sum } from './decimal.ts';

export const TOKEN_SCALE = 6;
export const RATE_SCALE = 6;

/** ceil6(fiat * rate): `fiat` in minor units of a currency with `minorUnits`, `rate` in micro units. */
export function fiatToToken(fiat: bigint, minorUnits: number, rateMicro: bigint): bigint {
  // fiat * rate is in 10^-(minorUnits + 6) units; dividing by 10^minorUnits gives micro-token units.
  return divCeil(fiat * rateMicro, pow10(minorUnits));
}

export interface TokenAmountsInput {
  amount: bigint;
  serviceFee: bigint;
  /** Sellers' net fiat amounts (after fee), minor units. */
  sellers: readonly bigint[];
  minorUnits: number;
  rateMicro: bigint;
}

export interface TokenAmounts {
  amountToken: bigint;
  serviceFeeToken: bigint;
  sellersToken: bigint[];
  merchantFeeToken: bigint;
}

/**
 * amountToken = ceil6(amount·rate), serviceFeeToken = ceil6(serviceFee·rate), each seller ceil6,
 * merchantFeeToken the rest. Rounding every part up can overshoot the total by a few micro units
 * when the merchant's own share is (nearly) zero; the overshoot is then taken back from the last
 * sellers so no transfer is ever negative and the parts always add up to amountToken.
 */
export function computeTokenAmounts(input: TokenAmountsInput): TokenAmounts {
  const { minorUnits, rateMicro } = input;
  const amountToken = fiatToToken(input.amount, minorUnits, rateMicro);
  const serviceFeeToken = fiatToToken(input.serviceFee, minorUnits, rateMicro);
  const sellersToken = input.sellers.map((s) => fiatToToken(s, minorUnits, rateMicro));
  let merchantFeeToken = amountToken - serviceFeeToken - sum(sellersToken);
  for (let i = sellersToken.length - 1; i >= 0 && merchantFeeToken < 0n; i -= 1) {
    const take = (sellersToken[i] ?? 0n) < -merchantFeeToken ? (sellersToken[i] ?? 0n) : -merchantFeeToken;
    sellersToken[i] = (sellersToken[i] ?? 0n) - take;
    merchantFeeToken += take;
  }
  return { amountToken, serviceFeeToken, sellersToken, merchantFeeToken };
}
