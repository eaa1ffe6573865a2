// Moves a chain's clock to the simulator's virtual time. `evm_setTime` shifts Anvil's clock, so every later block
// (not only the next) is stamped at virtual time as real time passes. Anvil accepts going backwards, so we never
// ask for less than the latest block's timestamp: block time stays monotonic. The latest block is only read when
// the new time is close to where the chain's clock may already be (a jump forward needs one RPC, not two).
// All moves of chain time must go through here (the web3 proxy refuses evm_* and anvil_*).
import type { ChainHandle } from './chain-handle.ts';

export interface SyncChainTimeReturnType {
  chainId: number;
  /** Seconds the chain's clock now reads. */
  timestamp: number;
}

interface LastSync {
  timestamp: number;
  atWallMs: number;
}

const lastSyncs = new WeakMap<ChainHandle, LastSync>();

export async function syncChainTime(handle: ChainHandle, unixMs: number): Promise<SyncChainTimeReturnType> {
  const target = Math.floor(unixMs / 1000);
  const last = lastSyncs.get(handle);
  let timestamp = target;
  // Where the chain's clock can be at most now: the last time we set, plus the real time since, plus rounding.
  const chainClockBound = last ? last.timestamp + Math.ceil((Date.now() - last.atWallMs) / 1000) + 2 : Number.POSITIVE_INFINITY;
  if (target <= chainClockBound) {
    const latest = await handle.rawRequest('eth_getBlockByNumber', ['latest', false]);
    const latestTimestamp = Number((latest.result as { timestamp?: string } | null)?.timestamp ?? 0);
    timestamp = Math.max(target, latestTimestamp);
  }
  const set = await handle.rawRequest('evm_setTime', [timestamp]);
  if (set.error) throw new Error(`evm_setTime failed on chain ${handle.chainId}: ${set.error.message}`);
  lastSyncs.set(handle, { timestamp, atWallMs: Date.now() });
  return { chainId: handle.chainId, timestamp };
}

/** Forget what we know of a chain's clock (after a restart it may differ). */
export const forgetChainTime = (handle: ChainHandle): void => void lastSyncs.delete(handle);
