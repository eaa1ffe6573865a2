// Currency, chain and token facts the suite generates inputs from. They are the project's shipped
// fixtures (spec §1 tables plus the assumed per-currency minimums), read once at import time.
import currenciesFile from '../../fixtures/currencies.json' with { type: 'json' };
import chainsFile from '../../fixtures/chains.json' with { type: 'json' };

export interface CurrencyFact {
  code: string;
  minorUnits: number;
  /** Assumed minimum amount (decimal string). */
  minimum: string;
}

export interface ChainFact {
  chainId: number;
  name: string;
  tokens: string[];
}

export const CURRENCIES: CurrencyFact[] = currenciesFile.currencies.map((c) => ({
  code: c.code,
  minorUnits: c.minorUnits,
  minimum: c.minimum,
}));

export const CHAINS: ChainFact[] = chainsFile.chains.map((c) => ({
  chainId: c.chainId,
  name: c.name,
  tokens: Object.keys(c.tokens),
}));

export const CHAIN_IDS = CHAINS.map((c) => c.chainId);
export const TOKENS = [...new Set(CHAINS.flatMap((c) => c.tokens))].sort();
export const ZERO_DECIMAL_CURRENCIES = CURRENCIES.filter((c) => c.minorUnits === 0).map((c) => c.code);

export function currency(code: string): CurrencyFact {
  const fact = CURRENCIES.find((c) => c.code === code);
  if (!fact) throw new Error(`unknown currency ${code}`);
  return fact;
}

/** (chainId, token) pairs that exist in the chain table, restricted to the accepted lists. */
export function allowedPairs(chains: number[], tokens: string[]): { chainId: number; token: string }[] {
  return CHAINS.filter((c) => chains.includes(c.chainId)).flatMap((c) =>
    c.tokens.filter((t) => tokens.includes(t)).map((token) => ({ chainId: c.chainId, token })),
  );
}

export const AMOUNT_MAXIMUM = '1000000000000';
