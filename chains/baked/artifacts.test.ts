import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bakeChainState, comparableState } from './bake-state.ts';
import { staleReason, statePath } from './baked-states.ts';
import { compileContracts, findStaleArtifacts } from '../contracts/compile-contracts.ts';
import { CHAIN_IDS } from '@stablepay/contract/chain-table';
import type { AnvilStateDocument } from '../anvil/dump-state.ts';

describe('committed build outputs', () => {
  it('fixtures/contracts match a fresh solc compile of chains/contracts/solidity', () => {
    const fresh = compileContracts();
    expect(fresh.map((a) => a.contractName).sort()).toEqual(['BEP20USDT', 'StablecoinGasPaymaster', 'TetherToken', 'Usdt0Token']);
    // If this fails: npx tsx chains/contracts/compile-contracts.ts, then npx tsx chains/baked/bake-state.ts
    expect(findStaleArtifacts(fresh)).toEqual([]);
  });

  it('fixtures/chain-state was baked from the current inputs', () => {
    // If this fails: npx tsx chains/baked/bake-state.ts
    expect(staleReason(CHAIN_IDS)).toBeUndefined();
  });

  it('re-baking reproduces the committed state (accounts, code, storage, balances)', async () => {
    const committed = JSON.parse(readFileSync(statePath(8453), 'utf8')) as AnvilStateDocument;
    const fresh = await bakeChainState(8453);
    expect(comparableState(fresh)).toEqual(comparableState(committed));
  });
});
