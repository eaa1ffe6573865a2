import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import fixture from '../fixtures/chains.json' with { type: 'json' };
import { CHAINS } from './chain-table.ts';

describe('the chain table', () => {
  it('holds every token address of the fixture in its checksummed form (the table does not checksum at load)', () => {
    const listed = fixture.chains.flatMap((c) => Object.values(c.tokens).map((t) => t.address));
    expect(listed.length).toBeGreaterThan(0);
    for (const address of listed) expect(address, 'fixtures/chains.json must list checksummed addresses').toBe(getAddress(address));
  });

  it('gives each token the address the fixture lists', () => {
    for (const chain of fixture.chains) {
      const loaded = CHAINS.find((c) => c.chainId === chain.chainId);
      for (const [symbol, token] of Object.entries(chain.tokens))
        expect(loaded?.tokens[symbol as 'USDC' | 'USDT']?.address).toBe(token.address);
    }
  });
});
