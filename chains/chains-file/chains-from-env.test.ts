import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainsFromEnv } from './chains-from-env.ts';

const fileWith = (chains: unknown[]): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'stablepay-env-')), 'chains.json');
  writeFileSync(path, JSON.stringify({ version: 1, chains }));
  return path;
};

describe('chains from the environment of a black-box target', () => {
  it('is undefined when nothing names a chain (the simulator then starts its own)', () => {
    expect(chainsFromEnv({})).toBeUndefined();
  });

  it('reads STABLEPAY_RPC_URL_<chainId>, and the chains file, a variable winning over the file', () => {
    const file = fileWith([
      {
        chainId: 8453,
        rpcUrl: 'http://10.0.0.1:1',
        tokens: { USDC: { address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', decimals: 6 } },
      },
      { chainId: 56, rpcUrl: 'http://10.0.0.1:2', tokens: {} },
    ]);
    expect(
      chainsFromEnv({ STABLEPAY_CHAINS_FILE: file, STABLEPAY_RPC_URL_56: 'http://127.0.0.1:3', STABLEPAY_RPC_URL_1: 'http://127.0.0.1:4' }),
    ).toEqual(
      new Map([
        [8453, 'http://10.0.0.1:1'],
        [1, 'http://127.0.0.1:4'],
        [56, 'http://127.0.0.1:3'],
      ]),
    );
  });

  it('refuses a file whose tokens are not where the simulator settles, or that names another chain', () => {
    const moved = fileWith([
      { chainId: 8453, rpcUrl: 'http://x', tokens: { USDC: { address: '0x0000000000000000000000000000000000000001', decimals: 6 } } },
    ]);
    expect(() => chainsFromEnv({ STABLEPAY_CHAINS_FILE: moved })).toThrow(
      /USDC on chain 8453 is at 0x0000000000000000000000000000000000000001/,
    );
    expect(() => chainsFromEnv({ STABLEPAY_CHAINS_FILE: fileWith([{ chainId: 10, rpcUrl: 'http://x', tokens: {} }]) })).toThrow(/chain 10/);
    // Not an address at all (a number in the JSON): refused with the same sentence, not a TypeError.
    const garbled = fileWith([{ chainId: 8453, rpcUrl: 'http://x', tokens: { USDC: { address: 42 as unknown as string, decimals: 6 } } }]);
    expect(() => chainsFromEnv({ STABLEPAY_CHAINS_FILE: garbled })).toThrow(/USDC on chain 8453 is at 42; the simulator needs 0x/);
  });

  it('accepts a token address in any letter case (a checksum is a spelling of the same address)', () => {
    const lower = fileWith([
      { chainId: 8453, rpcUrl: 'http://x', tokens: { USDC: { address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', decimals: 6 } } },
    ]);
    const upper = fileWith([
      { chainId: 8453, rpcUrl: 'http://x', tokens: { USDC: { address: '0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913', decimals: 6 } } },
    ]);
    expect(chainsFromEnv({ STABLEPAY_CHAINS_FILE: lower })?.get(8453)).toBe('http://x');
    expect(chainsFromEnv({ STABLEPAY_CHAINS_FILE: upper })?.get(8453)).toBe('http://x');
    expect(() => chainsFromEnv({ STABLEPAY_CHAINS_FILE: '/nonexistent.json' })).toThrow(/cannot be read/);
  });
});
