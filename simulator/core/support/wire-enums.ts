// The simulator keeps currency codes and chain IDs as the plain strings and numbers its reference
// tables are read from (fixtures/*.json); the contract types them as enums. Every stored value was
// validated against those tables, and payments/create-contract.test.ts proves the tables equal
// the contract's enums, so these narrowings at the wire boundary cannot admit a value outside them.
import type { ChainId, Currency } from '@stablepay/contract/types';

export const wireCurrency = (code: string): Currency => code as Currency;

export const wireChainId = (chainId: number): ChainId => chainId as ChainId;

export const wireChainIds = (chainIds: readonly number[]): ChainId[] => chainIds.map(wireChainId);
