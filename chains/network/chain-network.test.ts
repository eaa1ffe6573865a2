import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainUnavailableError, UnknownChainError } from '../errors.ts';
import { fundAccount, getTokenBalance } from './fund-account.ts';
import { createWeb3Proxy } from '../rpc-proxy/create-web3-proxy.ts';
import { platformPackageName, resolveAnvilBinary } from '../anvil/resolve-anvil-binary.ts';
import { startChainNetwork, type ChainNetwork } from './start-chain-network.ts';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const latestTimestamp = async (network: ChainNetwork, chainId: number): Promise<bigint> =>
  (await network.chain(chainId).publicClient.getBlock({ blockTag: 'latest' })).timestamp;

describe('anvil binary', () => {
  it('resolves from the platform package', () => {
    expect(platformPackageName('linux', 'x64')).toBe('@foundry-rs/anvil-linux-amd64');
    expect(platformPackageName('darwin', 'arm64')).toBe('@foundry-rs/anvil-darwin-arm64');
    expect(existsSync(resolveAnvilBinary())).toBe(true);
  });
});

describe('a network of all five chains', () => {
  let network: ChainNetwork;
  beforeAll(async () => {
    network = await startChainNetwork();
  });
  afterAll(() => network?.stop());

  it('runs one anvil per chain, each with its real chainId on its own loopback port', async () => {
    expect([...network.chains.keys()]).toEqual([1, 42161, 8453, 137, 56]);
    const ports = new Set<string>();
    for (const [chainId, handle] of network.chains) {
      expect(handle.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      ports.add(new URL(handle.rpcUrl).port);
      expect(await handle.publicClient.getChainId()).toBe(chainId);
      expect(isAlive(handle.pid)).toBe(true);
      expect(handle.status).toBe('running');
    }
    expect(ports.size).toBe(5);
  });

  it('automines: a write is in a block when its call returns', async () => {
    const { txHashes } = await fundAccount(network, 8453, 'USDC', '0x00000000000000000000000000000000000000a1', 1n);
    const receipt = await network.chain(8453).publicClient.getTransactionReceipt({ hash: txHashes[0]! });
    expect(receipt.status).toBe('success');
  });

  it('rejects a chain it does not run', () => {
    expect(() => network.chain(999)).toThrow(UnknownChainError);
  });

  it('moves block time forward to a clock that moved (a virtual clock advanced 35 h), never backwards', async () => {
    const advancedNow = Date.now() + 35 * 3600 * 1000;
    await network.syncTime(advancedNow);
    // Anvil keeps whole seconds: allow one second of rounding.
    const target = BigInt(Math.floor(advancedNow / 1000)) - 1n;
    await fundAccount(network, 1, 'USDC', '0x00000000000000000000000000000000000000a2', 1n);
    const afterAdvance = await latestTimestamp(network, 1);
    expect(afterAdvance >= target && afterAdvance <= target + 5n, `${afterAdvance} vs ${target}`).toBe(true);

    await network.syncTime(Date.now()); // older than the clock: ignored
    await fundAccount(network, 1, 'USDC', '0x00000000000000000000000000000000000000a2', 1n);
    expect(await latestTimestamp(network, 1)).toBeGreaterThanOrEqual(afterAdvance);
    // Every chain follows, not only the one written to.
    await network.chain(56).testClient.mine({ blocks: 1 });
    expect(await latestTimestamp(network, 56)).toBeGreaterThanOrEqual(target);
  });

  it('stops every process: no anvil and no watchdog survives', async () => {
    const pids = [...network.chains.values()].flatMap((h) => [h.pid, h.supervisorPid]);
    expect(pids.every(isAlive)).toBe(true);
    await network.stop();
    expect(pids.filter(isAlive)).toEqual([]);
    await network.stop(); // idempotent
    await expect(network.chain(1).ready()).rejects.toThrow(ChainUnavailableError);
  });
});

describe('a crashed chain', () => {
  it('is restarted on the same URL from its last checkpoint, and the restart is reported', async () => {
    const network = await startChainNetwork({ chains: [8453] });
    try {
      const handle = network.chain(8453);
      const holder = '0x00000000000000000000000000000000000000b1';
      await fundAccount(network, 8453, 'USDC', holder, 4_200_000n);
      await handle.checkpoint();
      const { pid, rpcUrl } = handle;
      const exited = once(network.events, 'chain-exited');
      const restarted = once(network.events, 'chain-restarted');
      process.kill(pid, 'SIGKILL');
      const [exit] = await exited;
      expect(exit).toMatchObject({ chainId: 8453, pid, signal: null });
      const [restart] = await restarted;
      expect(restart).toMatchObject({ chainId: 8453, restoredFrom: 'checkpoint', mayHaveLostWrites: false });
      expect(isAlive(pid)).toBe(false);
      expect(handle.pid).not.toBe(pid);
      expect(handle.rpcUrl).toBe(rpcUrl);
      expect(await getTokenBalance(network, 8453, 'USDC', holder)).toBe(4_200_000n);
    } finally {
      await network.stop();
    }
  });

  it('is reported as failed when restarts are off, and its proxy answers with an error instead of throwing', async () => {
    const network = await startChainNetwork({ chains: [137], maxRestarts: 0 });
    try {
      const handle = network.chain(137);
      const failed = once(network.events, 'chain-failed');
      process.kill(handle.pid, 'SIGKILL');
      const [failure] = await failed;
      expect(failure.chainId).toBe(137);
      await expect(handle.ready()).rejects.toThrow(ChainUnavailableError);
      const proxy = createWeb3Proxy(network);
      const res = await proxy.handle(137, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32603 } });
      expect((res.body as { error: { message: string } }).error.message).toContain('Chain 137 is unavailable');
    } finally {
      await network.stop();
    }
  });
});
