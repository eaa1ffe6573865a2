// Gas expressed in the paying token: gasUsed · gasPrice (wei) · native token USD price, rounded up
// to six decimals. Both tokens are treated as 1 USD, so the USD amount is the token amount.
import { divCeil, toUnits } from './decimal.ts';
import { TOKEN_SCALE } from './token-amounts.ts';

const WEI_PER_NATIVE = 10n ** 18n;
const PRICE_SCALE = 6;

/** Micro-token units for `gasUsed` at `gasPriceWei` with the native token priced at `nativeUsdPrice`. */
export function gasCostInToken(gasUsed: bigint, gasPriceWei: bigint, nativeUsdPrice: string): bigint {
  const priceMicro = toUnits(nativeUsdPrice, PRICE_SCALE);
  // wei · (USD micro per native) / 1e18 = USD micro = token micro (TOKEN_SCALE = PRICE_SCALE = 6).
  return divCeil(gasUsed * gasPriceWei * priceMicro * 10n ** BigInt(TOKEN_SCALE - PRICE_SCALE), WEI_PER_NATIVE);
}
