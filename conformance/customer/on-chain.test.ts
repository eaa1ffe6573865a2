// Blacklisting a seller (how the browser customer makes a payment fail) on one target instance's chain never waits for
// another instance's: each instance has chains of its own, and a blacklisting queued by chain id alone once held three
// checks of a run 4 s each behind one waiting on a chain whose mining was paused. Once a paused chain mines again, the
// receipt is seen at once. The blacklister key is the operator's, which the simulator sends with too: a transaction of
// the simulator that takes the nonce a blacklisting read is no reason for the blacklisting to fail.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getTransactionCount, readContract, sendTransaction } from 'viem/actions';
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

  it('sends again when another sender of the key took the nonce it read (the simulator mints with that key)', async () => {
    const chain = chainOf(b.file, 8453);
    const operator = privateKeyToAccount(b.file.usdcRoles.blacklister.privateKey);
    const direct = createClient({ account: operator, transport: http(chain.rpcUrl) });
    // A JSON-RPC proxy in front of instance b's Base: just before the blacklisting's first transaction reaches the
    // chain, another transaction of the same key takes that nonce, as a payment the simulator prepares there would.
    let interposed = 0;
    let refusedSends = 0;
    const proxy: Server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const call = JSON.parse(body) as { method: string };
      if (call.method === 'eth_sendRawTransaction' && interposed === 0) {
        interposed += 1;
        const nonce = await getTransactionCount(direct, { address: operator.address, blockTag: 'pending' });
        await sendTransaction(direct, { chain: null, to: operator.address, value: 0n, nonce, type: 'legacy' } as never);
      }
      const answer = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await answer.text();
      if (call.method === 'eth_sendRawTransaction' && /nonce/i.test(text)) refusedSends += 1;
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const file = { ...b.file, chains: b.file.chains.map((c) => (c.chainId === 8453 ? { ...c, rpcUrl: url } : c)) };
      const seller = '0x00000000000000000000000000000000000000c3';
      await blacklistUsdc(file, 8453, [seller]);
      expect(interposed).toBe(1);
      expect(refusedSends).toBe(1);
      expect(await blacklisted(b, seller)).toBe(true);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 60_000);
});
