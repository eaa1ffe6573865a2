// The one table of supported chains and tokens (spec §1), read from fixtures/chains.json: each chain with the
// canonical address and on-chain decimals of every token it carries. Only (chain, token) pairs of this table can
// ever be paid; the chain layer deploys exactly these tokens at exactly these addresses.
import fixture from '../fixtures/chains.json' with { type: 'json' };

/** An EVM address as viem types it. */
export type Address = `0x${string}`;

export type TokenSymbol = 'USDC' | 'USDT';

export const TOKENS: readonly TokenSymbol[] = ['USDC', 'USDT'];

/** Where a token lives on one chain. */
export interface TokenDeployment {
  address: Address;
  /** On-chain decimals (18 for USDT on BNB Smart Chain, 6 elsewhere). */
  decimals: number;
}

export interface ChainInfo {
  chainId: number;
  name: string;
  nativeSymbol: string;
  /** Assumed USD price of the native token, a decimal string (used to express gas in the token). */
  nativeUsdPrice: string;
  /** The tokens this chain carries; a symbol that is absent is not payable on this chain. */
  tokens: Readonly<Partial<Record<TokenSymbol, TokenDeployment>>>;
}

interface ChainsFile {
  chains: {
    chainId: number;
    name: string;
    nativeSymbol: string;
    nativeUsdPrice: string;
    tokens: Record<string, { address: string; decimals: number }>;
  }[];
}

function checkedAddress(value: string): Address {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Error(`fixtures/chains.json: "${value}" is not an address`);
  return value as Address;
}

function tokensOf(listed: ChainsFile['chains'][number]['tokens']): Partial<Record<TokenSymbol, TokenDeployment>> {
  const tokens: Partial<Record<TokenSymbol, TokenDeployment>> = {};
  for (const symbol of TOKENS) {
    const token = listed[symbol];
    // The fixture holds checksummed addresses (its test checks each against viem's getAddress, so a typo fails
    // there); only the shape is checked here, since checksumming at load would cost every start a keccak library.
    if (token) tokens[symbol] = { address: checkedAddress(token.address), decimals: token.decimals };
  }
  return tokens;
}

export const CHAINS: readonly ChainInfo[] = (fixture as ChainsFile).chains.map((c) => ({
  chainId: c.chainId,
  name: c.name,
  nativeSymbol: c.nativeSymbol,
  nativeUsdPrice: c.nativeUsdPrice,
  tokens: tokensOf(c.tokens),
}));

export const CHAIN_IDS: readonly number[] = CHAINS.map((c) => c.chainId);

export function findChain(chainId: number): ChainInfo | undefined {
  return CHAINS.find((c) => c.chainId === chainId);
}

export function isToken(value: unknown): value is TokenSymbol {
  return typeof value === 'string' && (TOKENS as readonly string[]).includes(value);
}

export function isPairSupported(chainId: number, token: string): boolean {
  return isToken(token) && findChain(chainId)?.tokens[token] !== undefined;
}

/** True when at least one (chain, token) pair of the table is in both lists. */
export function hasSupportedPair(chainIds: readonly number[], tokens: readonly string[]): boolean {
  return chainIds.some((id) => tokens.some((t) => isPairSupported(id, t)));
}
