// Durable mode keeps the chains too: one real restart on Anvil. A payment settled on chain before the stop is still
// SUCCESSFUL after it, and its transaction is still on the chain (from the checkpoint in the state dir, not the
// baked state). A customer who signed in on the hosted page and had an operation prepared before the stop pays
// with the same checkout token after it; the state dir never holds that token.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../server.ts';
import { everyByte } from '../../test-support/every-byte.ts';

const KEY = 'pk_durablechains1234';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const quiet = { info: () => undefined, error: () => undefined };
const dir = mkdtempSync(join(tmpdir(), 'stablepay-durable-chains-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

describe('durable mode with chains', () => {
  it('a restart on the same state dir starts the chain from its saved state: the settled transaction is still there, a prepared checkout goes on', async () => {
    const options = { port: 0, defaultApiKey: KEY, logger: quiet, stateDir: dir, chains: { chains: [8453] }, bundleDelayMs: 0 } as const;
    const first = await startServer(options);
    let txHash: string;
    let blockBefore: bigint;
    let paymentId: string;
    let pending: {
      paymentId: string;
      checkoutToken: string;
      ownerPrivateKey: `0x${string}`;
      prepared: { userOpHash: `0x${string}`; userOperation: Record<string, unknown>; entryPoint: string };
    };
    try {
      const created = (await (
        await fetch(`${first.url}/v1/payments`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ amount: '12.34', currency: 'USD', acceptedChains: [8453] }),
        })
      ).json()) as { id: string };
      paymentId = created.id;
      const paid = await fetch(`${first.url}/control/v1/payments/${paymentId}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chainId: 8453, token: 'USDC' }),
      });
      const body = (await paid.json()) as { status: string; txHash: string };
      expect(body.status).toBe('SUCCESSFUL');
      txHash = body.txHash;
      const url = first.simulator.chains?.chains.get(8453)?.rpcUrl as string;
      blockBefore = BigInt(await rpc(url, 'eth_blockNumber', []));

      // A customer signs in on the hosted page and has the payment's operation prepared, then the simulator stops.
      const open = (await (
        await fetch(`${first.url}/v1/payments`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ amount: '5.00', currency: 'USD', acceptedChains: [8453] }),
        })
      ).json()) as { id: string };
      const page = { 'content-type': 'application/json' };
      const signIn = (await (
        await fetch(`${first.url}/p/${open.id}/sign-in`, {
          method: 'POST',
          headers: page,
          body: JSON.stringify({ email: 'restart@example.com' }),
        })
      ).json()) as { checkoutToken: string; ownerPrivateKey: `0x${string}` };
      const prep = await fetch(`${first.url}/p/${open.id}/prepare`, {
        method: 'POST',
        headers: { ...page, authorization: `Bearer ${signIn.checkoutToken}` },
        body: JSON.stringify({ chainId: 8453, token: 'USDC' }),
      });
      expect(prep.status).toBe(200);
      pending = { paymentId: open.id, ...signIn, prepared: (await prep.json()) as typeof pending.prepared };
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

      // The token still opens its page's prepare call (past the 401 an unknown token gets, to the pair check), and
      // the operation prepared before the stop is the one the bundler takes.
      const tryPrepare = (token: string) =>
        fetch(`${second.url}/p/${pending.paymentId}/prepare`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ chainId: 137, token: 'USDC' }),
        });
      expect((await tryPrepare(`ct_${'0'.repeat(48)}`)).status).toBe(401);
      expect((await tryPrepare(pending.checkoutToken)).status).toBe(400);
      const signature = await privateKeyToAccount(pending.ownerPrivateKey).signMessage({ message: { raw: pending.prepared.userOpHash } });
      const sent = await fetch(`${second.url}/v1/web3/8453`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pending.checkoutToken}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_sendUserOperation',
          params: [{ ...pending.prepared.userOperation, signature }, pending.prepared.entryPoint],
        }),
      });
      const reply = (await sent.json()) as { result?: string; error?: unknown };
      expect(reply.error).toBeUndefined();
      expect(reply.result?.toLowerCase()).toBe(pending.prepared.userOpHash.toLowerCase());
      let status = 'PROCESSING';
      for (let i = 0; i < 300 && status === 'PROCESSING'; i++) {
        status = ((await (await fetch(`${second.url}/v1/payments/${pending.paymentId}`, { headers })).json()) as { status: string }).status;
        if (status === 'PROCESSING') await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe('SUCCESSFUL');
    } finally {
      await second.close();
    }
    expect(everyByte(dir)).not.toContain(pending.checkoutToken.slice(3));
  });

  it('an operation the bundler accepted but had not mined at the stop is mined after the restart: PROCESSING ends SUCCESSFUL, once', async () => {
    const own = mkdtempSync(join(tmpdir(), 'stablepay-durable-mempool-'));
    const options = { port: 0, defaultApiKey: KEY, logger: quiet, stateDir: own, chains: { chains: [8453] } } as const;
    // The first start never bundles on its own (10 minutes of real time): the operation is still in the mempool at the stop.
    const first = await startServer({ ...options, bundleDelayMs: 600_000 });
    let paymentId: string;
    let userOpHash: string;
    try {
      const open = (await (
        await fetch(`${first.url}/v1/payments`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ amount: '7.00', currency: 'USD', acceptedChains: [8453] }),
        })
      ).json()) as { id: string };
      paymentId = open.id;
      const page = { 'content-type': 'application/json' };
      const signIn = (await (
        await fetch(`${first.url}/p/${open.id}/sign-in`, {
          method: 'POST',
          headers: page,
          body: JSON.stringify({ email: 'mempool@example.com' }),
        })
      ).json()) as { checkoutToken: string; ownerPrivateKey: `0x${string}` };
      const prepared = (await (
        await fetch(`${first.url}/p/${open.id}/prepare`, {
          method: 'POST',
          headers: { ...page, authorization: `Bearer ${signIn.checkoutToken}` },
          body: JSON.stringify({ chainId: 8453, token: 'USDC' }),
        })
      ).json()) as { userOpHash: `0x${string}`; userOperation: Record<string, unknown>; entryPoint: string };
      userOpHash = prepared.userOpHash;
      const signature = await privateKeyToAccount(signIn.ownerPrivateKey).signMessage({ message: { raw: prepared.userOpHash } });
      const sent = (await (
        await fetch(`${first.url}/v1/web3/8453`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${signIn.checkoutToken}` },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'eth_sendUserOperation',
            params: [{ ...prepared.userOperation, signature }, prepared.entryPoint],
          }),
        })
      ).json()) as { result?: string };
      expect(sent.result?.toLowerCase()).toBe(userOpHash.toLowerCase());
      expect(((await (await fetch(`${first.url}/v1/payments/${paymentId}`, { headers })).json()) as { status: string }).status).toBe(
        'PROCESSING',
      );
    } finally {
      await first.close();
    }

    const second = await startServer({ ...options, bundleDelayMs: 0 });
    try {
      expect(await second.simulator.resumedOperations).toBe(1);
      let got = { status: 'PROCESSING', txHash: '' };
      for (let i = 0; i < 300 && got.status === 'PROCESSING'; i++) {
        got = (await (await fetch(`${second.url}/v1/payments/${paymentId}`, { headers })).json()) as typeof got;
        if (got.status === 'PROCESSING') await new Promise((r) => setTimeout(r, 50));
      }
      expect(got.status).toBe('SUCCESSFUL');
      const url = second.simulator.chains?.chains.get(8453)?.rpcUrl as string;
      const receipt = await rpc(url, 'eth_getTransactionReceipt', [got.txHash]);
      expect(receipt?.status).toBe('0x1');
    } finally {
      await second.close();
    }

    // Mined and recorded: a third start finds nothing left to resume, and the payment keeps its transaction.
    const third = await startServer({ ...options, bundleDelayMs: 0 });
    try {
      expect(await third.simulator.resumedOperations).toBe(0);
      expect(((await (await fetch(`${third.url}/v1/payments/${paymentId}`, { headers })).json()) as { status: string }).status).toBe(
        'SUCCESSFUL',
      );
    } finally {
      await third.close();
      rmSync(own, { recursive: true, force: true });
    }
  });
});
