// Which contract implements each token of the chain table on each chain, and what its name()/symbol() answer. The
// table itself (addresses, decimals) is reference data; these are the chain layer's facts about the bytecode it deploys.
import { findChain, type TokenSymbol } from '@stablepay/contract/chain-table';

/** Which contract sits at each canonical token address, and what name()/symbol() answer on mainnet. */
export type TokenContractKind = 'fiat-token-v2_2' | 'tether-token' | 'usdt0' | 'bep20-usdt';

export interface TokenVariant {
  kind: TokenContractKind;
  name: string;
  symbol: string;
}

const USDC: TokenVariant = { kind: 'fiat-token-v2_2', name: 'USD Coin', symbol: 'USDC' };

// USDT on Arbitrum (since 2025-01) and Polygon PoS (since 2025-06) is Tether's USDT0 at the old address; the
// names below are what those contracts answer now (previously "Tether USD"/"USDT" and "(PoS) Tether USD"/"USDT").
const USDT_VARIANTS: Record<number, TokenVariant> = {
  1: { kind: 'tether-token', name: 'Tether USD', symbol: 'USDT' },
  42161: { kind: 'usdt0', name: 'USD₮0', symbol: 'USD₮0' },
  137: { kind: 'usdt0', name: 'USDT0', symbol: 'USDT0' },
  56: { kind: 'bep20-usdt', name: 'Tether USD', symbol: 'USDT' },
};

export function tokenVariant(chainId: number, token: TokenSymbol): TokenVariant | undefined {
  if (!findChain(chainId)?.tokens[token]) return undefined;
  return token === 'USDC' ? USDC : USDT_VARIANTS[chainId];
}
