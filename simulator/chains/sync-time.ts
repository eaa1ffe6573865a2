// Moves a chain's clock to the simulator's virtual time. `evm_setTime` shifts Anvil's clock, so every later block
// (not only the next) is stamped at virtual time as real time passes. Anvil accepts going backwards, so we never
// ask for less than the latest block's timestamp: block time stays monotonic.
import type { ChainHandle } from './chain-handle.ts';

export interface SyncChainTimeReturnType {
  chainId: number;
  /** Seconds the chain's clock now reads. */
  timestamp: number;
}

export async function syncChainTime(handle: ChainHandle, unixMs: number): Promise<SyncChainTimeReturnType> {
  const target = Math.floor(unixMs / 1000);
  const latest = await handle.rawRequest('eth_getBlockByNumber', ['latest', false]);
  const latestTimestamp = Number((latest.result as { timestamp?: string } | null)?.timestamp ?? 0);
  const timestamp = Math.max(target, latestTimestamp);
  const set = await handle.rawRequest('evm_setTime', [timestamp]);
  if (set.error) throw new Error(`evm_setTime failed on chain ${handle.chainId}: ${set.error.message}`);
  return { chainId: handle.chainId, timestamp };
}
