// Durable mode keeps the chains too: one real restart on Anvil. A payment settled on chain before the stop is still
// SUCCESSFUL after it, and its transaction is still on the chain (from the checkpoint in the state dir, not the
// baked state).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../server.ts';

const KEY = 'pk_durablechains1234';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const quiet = { info: () => undefined, error: () => undefined };
const dir = mkdtempSync(join(tmpdir(), 'stablepay-durable-chains-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: unknown }).result;
}

describe('durable mode with chains', () => {
  it('a restart on the same state dir starts the chain from its saved state: the settled transaction is still there', async () => {
    const options = { port: 0, defaultApiKey: KEY, logger: quiet, stateDir: dir, chains: { chains: [8453] }, bundleDelayMs: 0 } as const;
    const first = await startServer(options);
    let txHash: string;
    let blockBefore: bigint;
    let paymentId: string;
    try {
      const created = (await (await fetch(`${first.url}/v1/payments`, { method: 'POST', headers, body: JSON.stringify({ amount: '12.34', currency: 'USD', acceptedChains: [8453] }) })).json()) as { id: string };
      paymentId = created.id;
      const paid = await fetch(`${first.url}/control/v1/payments/${paymentId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chainId: 8453, token: 'USDC' }) });
      const body = (await paid.json()) as { status: string; txHash: string };
      expect(body.status).toBe('SUCCESSFUL');
      txHash = body.txHash;
      const url = first.simulator.chains?.chains.get(8453)?.rpcUrl as string;
      blockBefore = BigInt(await rpc(url, 'eth_blockNumber', []));
    } finally {
      await first.close();
    }
    expect(existsSync(join(dir, 'chains', 'chain-8453.json'))).toBe(true);

    const second = await startServer(options);
    try {
      const got = (await (await fetch(`${second.url}/v1/payments/${paymentId}`, { headers })).json()) as { status: string; txHash: string };
      expect(got).toMatchObject({ status: 'SUCCESSFUL', txHash });
      const url = second.simulator.chains?.chains.get(8453)?.rpcUrl as string;
      const receipt = await rpc(url, 'eth_getTransactionReceipt', [txHash]);
      expect(receipt?.status).toBe('0x1');
      expect(BigInt(await rpc(url, 'eth_blockNumber', []))).toBeGreaterThanOrEqual(blockBefore);
    } finally {
      await second.close();
    }
  });
});
