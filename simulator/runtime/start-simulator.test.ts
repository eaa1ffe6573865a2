import { afterAll, describe, expect, it } from 'vitest';
import { startChainNetwork } from '@stablepay/chains';
import { createSimulatorOn, startSimulator } from './start-simulator.ts';

const quiet = { info() {}, error() {} };
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startSimulator', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('starts the chains, settles on them, and close() leaves no anvil or watchdog behind', async () => {
    const sim = await startSimulator({ defaultApiKey: 'pk_startsim0000', logger: quiet, chains: { chains: [8453, 56] }, bundleDelayMs: 0 });
    cleanup.push(() => sim.close());
    expect(sim.checkout).toBeDefined();
    expect([...(sim.chains?.chains.keys() ?? [])]).toEqual([8453, 56]);
    const pids = [...(sim.chains?.chains.values() ?? [])].flatMap((c) => [c.pid, c.supervisorPid]);
    expect(pids.every(isAlive)).toBe(true);
    // Chain time starts at the virtual clock (from the next block on).
    await sim.chains!.chain(56).testClient.mine({ blocks: 1 });
    const block = await sim.chains!.chain(56).publicClient.getBlock();
    expect(Math.abs(Number(block.timestamp) * 1000 - sim.clock.now())).toBeLessThan(5_000);
    const pairs = await sim.checkout!.pairs(sim.payments.create(sim.defaultMerchant.id, { amount: '10', currency: 'USD' }, 'api').id);
    expect(pairs.map((p) => [p.chainId, p.token])).toEqual([
      [8453, 'USDC'],
      [56, 'USDT'],
    ]);
    await sim.close();
    await sim.close(); // idempotent
    await new Promise((r) => setTimeout(r, 50));
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('with chains: false is the instant simulator', async () => {
    const sim = await startSimulator({ chains: false, logger: quiet });
    cleanup.push(() => sim.close());
    expect(sim.checkout).toBeUndefined();
    expect(sim.chains).toBeUndefined();
  });

  it('stops the chains it was given when the simulator cannot be built', async () => {
    const network = await startChainNetwork({ chains: [8453] });
    const pids = [...network.chains.values()].flatMap((c) => [c.pid, c.supervisorPid]);
    await expect(createSimulatorOn(network, { defaultApiKey: 'sk_bad', logger: quiet })).rejects.toThrow(/defaultApiKey must be pk_/);
    await new Promise((r) => setTimeout(r, 50));
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
