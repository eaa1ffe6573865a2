// Fork mode, offline: the "real" chain is a local Anvil running our baked state; a fork of it must see its contracts
// and balances at the same addresses, while writes to the fork leave the origin untouched.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundAccount, getTokenBalance } from './fund-account.ts';
import { chainStateDir } from '../paths.ts';
import { spawnAnvil, type AnvilProcess } from '../anvil/spawn-anvil.ts';
import { startChainNetwork, type ChainNetwork } from './start-chain-network.ts';
import { chainsFile } from '../chains-file/chains-file.ts';
import { attachChainNetwork, ChainNotReachableError } from './attach-chain-network.ts';

const holder = '0x00000000000000000000000000000000000000f1';

describe('a chain run as a fork (@viem/anvil forkUrl)', () => {
  let origin: AnvilProcess;
  let originNetwork: ChainNetwork;
  let fork: ChainNetwork;
  beforeAll(async () => {
    origin = await spawnAnvil({ chainId: 8453, loadStatePath: join(chainStateDir, '8453.json') });
    originNetwork = await attachChainNetwork({ rpcUrls: new Map([[8453, origin.rpcUrl]]) });
    await fundAccount(originNetwork, 8453, 'USDC', holder, 3_000_000n);
    fork = await startChainNetwork({ chains: [8453], forks: { 8453: origin.rpcUrl } });
  });
  afterAll(async () => {
    await fork?.stop();
    await origin?.stop();
  });

  it('serves the origin chain id, contracts and balances at their addresses', async () => {
    const handle = fork.chain(8453);
    expect(handle.rpcUrl).not.toBe(origin.rpcUrl);
    expect(await handle.publicClient.getChainId()).toBe(8453);
    expect(await getTokenBalance(fork, 8453, 'USDC', holder)).toBe(3_000_000n);
    expect(chainsFile(fork).chains[0]).toMatchObject({ chainId: 8453, forkOf: origin.rpcUrl });
  });

  it('takes writes locally without touching the origin', async () => {
    await fundAccount(fork, 8453, 'USDC', holder, 7_000_000n);
    expect(await getTokenBalance(fork, 8453, 'USDC', holder)).toBe(10_000_000n);
    expect(await getTokenBalance(originNetwork, 8453, 'USDC', holder)).toBe(3_000_000n);
  });

  it('refuses to attach to a URL that serves another chain', async () => {
    await expect(attachChainNetwork({ rpcUrls: new Map([[1, origin.rpcUrl]]) })).rejects.toThrow(ChainNotReachableError);
  });
});
