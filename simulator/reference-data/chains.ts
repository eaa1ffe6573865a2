// Supported chains and tokens (spec §1). Only (chain, token) pairs of this table can ever be paid.
import fixture from '../../fixtures/chains.json' with { type: 'json' };

export type TokenSymbol = 'USDC' | 'USDT';

export interface ChainInfo {
  chainId: number;
  name: string;
  nativeSymbol: string;
  /** Assumed USD price of the native token, a decimal string (used to express gas in the token). */
  nativeUsdPrice: string;
  tokens: readonly TokenSymbol[];
}

export const TOKENS: readonly TokenSymbol[] = ['USDC', 'USDT'];

export const CHAINS: readonly ChainInfo[] = fixture.chains.map((c) => ({
  chainId: c.chainId,
  name: c.name,
  nativeSymbol: c.nativeSymbol,
  nativeUsdPrice: c.nativeUsdPrice,
  tokens: TOKENS.filter((t) => t in c.tokens),
}));

export const CHAIN_IDS: readonly number[] = CHAINS.map((c) => c.chainId);

export function findChain(chainId: number): ChainInfo | undefined {
  return CHAINS.find((c) => c.chainId === chainId);
}

export function isToken(value: unknown): value is TokenSymbol {
  return typeof value === 'string' && (TOKENS as readonly string[]).includes(value);
}

export function isPairSupported(chainId: number, token: string): boolean {
  return findChain(chainId)?.tokens.includes(token as TokenSymbol) ?? false;
}

/** True when at least one (chain, token) pair of the table is in both lists. */
export function hasSupportedPair(chainIds: readonly number[], tokens: readonly string[]): boolean {
  return chainIds.some((id) => tokens.some((t) => isPairSupported(id, t)));
}
