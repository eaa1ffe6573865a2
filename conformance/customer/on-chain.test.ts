// Blacklisting a seller (how the browser customer makes a payment fail) on one target instance's chain never waits for
// another instance's: each instance has chains of its own, and a blacklisting queued by chain id alone once held three
// checks of a run 4 s each behind one waiting on a chain whose mining was paused. Once a paused chain mines again, the
// receipt is seen at once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, http, parseAbi } from 'viem';
import { readContract } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChains, type TestChains } from '@stablepay/chains/start-test-chains';
import { blacklistUsdc, chainOf } from './on-chain.ts';

let a: TestChains;
let b: TestChains;

beforeAll(async () => {
  const start = () => startTestChains({ filePath: join(mkdtempSync(join(tmpdir(), 'stablepay-on-chain-')), 'chains.json') });
  [a, b] = await Promise.all([start(), start()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function setAutomine(chains: TestChains, on: boolean): Promise<void> {
  await fetch(chainOf(chains.file, 8453).rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [on] }),
  });
}

async function blacklisted(chains: TestChains, address: `0x${string}`): Promise<boolean> {
  const chain = chainOf(chains.file, 8453);
  return readContract(createClient({ transport: http(chain.rpcUrl) }), {
    address: chain.tokens.USDC!.address,
    abi: parseAbi(['function isBlacklisted(address) view returns (bool)']),
    functionName: 'isBlacklisted',
    args: [address],
  });
}

describe('blacklistUsdc', () => {
  it("does not wait for another instance's chain of the same id, and sees a receipt once mining resumes", async () => {
    const first = '0x00000000000000000000000000000000000000a1';
    const second = '0x00000000000000000000000000000000000000b2';
    await setAutomine(a, false);
    let aDone = false;
    const onA = blacklistUsdc(a.file, 8453, [first]).then(() => {
      aDone = true;
    });
    try {
      // Instance b's Base goes on while instance a's Base does not mine.
      await blacklistUsdc(b.file, 8453, [second]);
      expect(await blacklisted(b, second)).toBe(true);
      expect(aDone).toBe(false);
    } finally {
      await setAutomine(a, true);
    }
    // Turning automine back on mines what waits; the blacklisting sees its receipt.
    await onA;
    expect(await blacklisted(a, first)).toBe(true);
  }, 60_000);
});
