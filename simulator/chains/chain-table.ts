// The supported chains and tokens, read from fixtures/chains.json (the project's source of truth), plus the facts the
// chain layer adds: which contract implements each token, its on-chain name/symbol, and the assumed gas price.
import { readFileSync } from 'node:fs';
import { getAddress, type Address } from 'viem';
import { chainTablePath } from './paths.ts';

export type TokenSymbol = 'USDC' | 'USDT';
export const TOKEN_SYMBOLS: readonly TokenSymbol[] = ['USDC', 'USDT'];

export interface TokenEntry {
  address: Address;
  decimals: number;
}

export interface ChainEntry {
  name: string;
  chainId: number;
  nativeSymbol: string;
  /** Assumed USD price of the native token (decimal string), used to convert gas into the paying token. */
  nativeUsdPrice: string;
  tokens: Partial<Record<TokenSymbol, TokenEntry>>;
}

interface ChainTableFile {
  chains: { name: string; chainId: number; nativeSymbol: string; nativeUsdPrice: string; tokens: Record<string, TokenEntry> }[];
}

let table: ReadonlyMap<number, ChainEntry> | undefined;

export function readChainTable(): ReadonlyMap<number, ChainEntry> {
  if (table) return table;
  const file = JSON.parse(readFileSync(chainTablePath, 'utf8')) as ChainTableFile;
  table = new Map(
    file.chains.map((c) => {
      const tokens: Partial<Record<TokenSymbol, TokenEntry>> = {};
      for (const symbol of TOKEN_SYMBOLS) {
        const t = c.tokens[symbol];
        if (t) tokens[symbol] = { address: getAddress(t.address), decimals: t.decimals };
      }
      return [c.chainId, { name: c.name, chainId: c.chainId, nativeSymbol: c.nativeSymbol, nativeUsdPrice: c.nativeUsdPrice, tokens }];
    }),
  );
  return table;
}

export const SUPPORTED_CHAIN_IDS: readonly number[] = [1, 42161, 8453, 137, 56];

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
  if (!readChainTable().get(chainId)?.tokens[token]) return undefined;
  return token === 'USDC' ? USDC : USDT_VARIANTS[chainId];
}

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
