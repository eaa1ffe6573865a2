// The simulated chains' gas price and the native-token price conversion the paymaster and the bundler share.

/**
 * Assumed gas price per chain, in wei (the simulated chains have a base fee of 0, so this is the whole price an
 * operation pays). Roughly mainnet levels, so `gasActual` looks like what a customer would see.
 */
export const DEFAULT_GAS_PRICES_WEI: Readonly<Record<number, bigint>> = {
  1: 2_000_000_000n, // 2 gwei
  42161: 10_000_000n, // 0.01 gwei
  8453: 5_000_000n, // 0.005 gwei
  137: 30_000_000_000n, // 30 gwei
  56: 100_000_000n, // 0.1 gwei
};

/** Token smallest units per 1e18 wei: nativeUsdPrice * 10**decimals (a stablecoin counts as 1 USD). */
export function tokenPerNative(nativeUsdPrice: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(nativeUsdPrice);
  if (!match) throw new Error(`nativeUsdPrice must be a plain decimal string, got "${nativeUsdPrice}" (fixtures/chains.json).`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new Error(`nativeUsdPrice "${nativeUsdPrice}" has more decimals than the token (${decimals}).`);
  return BigInt(match[1] + fraction.padEnd(decimals, '0'));
}
