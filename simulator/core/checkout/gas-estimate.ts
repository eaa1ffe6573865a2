// Gas in the paying token before an operation exists: what the page shows next to each pair, and how much the
// simulator faucet adds for gas when it funds a customer. Measured on our chains (EntryPoint v0.7, SimpleAccount,
// StablecoinGasPaymaster): a first payment deploys the account (~390k gas for merchant + fee collector), each
// further recipient adds ~30k. The exact figure comes later from the built operation and the receipt.
import type { ChainNetwork } from '@stablepay/chains';
import { formatUnits, pow10, rescaleCeil } from '../money/decimal.ts';
import { gasCostInToken } from '../money/gas.ts';
import { TOKEN_SCALE } from '../money/token-amounts.ts';

const FIRST_PAYMENT_GAS = 390_000n;
const GAS_PER_EXTRA_RECIPIENT = 30_000n;
/** The paymaster's postOp overhead it charges on top of the EntryPoint's actualGasCost. */
const POST_OP_OVERHEAD_GAS = 35_000n;
/** Faucet headroom over the estimate, so estimation of the real operation never fails for want of gas money. */
const FUNDING_HEADROOM = 3n;

function expectedGas(recipients: number): bigint {
  return FIRST_PAYMENT_GAS + GAS_PER_EXTRA_RECIPIENT * BigInt(Math.max(0, recipients - 2)) + POST_OP_OVERHEAD_GAS;
}

/** Expected gas in micro-token units for a payment with `recipients` transfers on `chainId`. */
export function estimateGasMicros(network: ChainNetwork, chainId: number, recipients: number): bigint {
  const handle = network.chain(chainId);
  return gasCostInToken(expectedGas(recipients), handle.gasPriceWei, handle.entry.nativeUsdPrice);
}

export function estimateGasToken(network: ChainNetwork, chainId: number, recipients: number): string {
  return formatUnits(estimateGasMicros(network, chainId, recipients), TOKEN_SCALE);
}

/** What the faucet adds for gas before the operation is built, in the token's smallest unit. */
export function gasFundingUnits(network: ChainNetwork, chainId: number, recipients: number, decimals: number): bigint {
  return estimateGasMicros(network, chainId, recipients) * FUNDING_HEADROOM * pow10(decimals - TOKEN_SCALE);
}

/** Smallest units of a token with `decimals` as whole tokens with 6 decimals, rounded up. */
export function formatTokenUnits(units: bigint, decimals: number): string {
  return formatUnits(rescaleCeil(units, decimals, TOKEN_SCALE), TOKEN_SCALE);
}
