// Starts the five local chains (or a subset) from their baked state, ready in well under a second; or, for the chains
// named in `forks`, as forks of another JSON-RPC endpoint (real contracts at their real addresses).
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staleReason, statePath } from '../baked/baked-states.ts';
import type { ChainNetwork } from './build-chain-network.ts';
import { createChainEvents, type ChainLogger } from '../clients/chain-events.ts';
import type { ChainHandle } from './chain-handle.ts';
import { CHAIN_IDS, findChain } from '@stablepay/contract/chain-table';
import { UnknownChainError } from '../errors.ts';
import { chainStateDir } from '../paths.ts';
import { computeStateFingerprint } from '../baked/state-fingerprint.ts';
import { SupervisedChain } from '../anvil/supervise-chain.ts';
import { forgetChainTime, syncChainTime } from './sync-time.ts';

export type { ChainNetwork } from './build-chain-network.ts';

export interface StartChainNetworkOptions {
  /** Chain ids to start (default: all five). */
  chains?: readonly number[];
  /** Derives customer owner keys from e-mail addresses (same seed + email -> same smart account). */
  seed?: string;
  logger?: ChainLogger;
  /** Override the assumed gas price (wei) per chain. */
  gasPrices?: Partial<Record<number, bigint>>;
  /** Crash handling: restarts allowed per window (default 3 per 60 s); 0 reports crashes without restarting. */
  maxRestarts?: number;
  restartWindowMs?: number;
  /** Directory with baked states (default fixtures/chain-state). Stale or missing states are baked into a cache. */
  stateDir?: string;
  /** Interface the chains listen on (default 127.0.0.1; 0.0.0.0 lets a container reach them). */
  host?: string;
  /** Durable mode: keep each chain's state in this directory (chain-<id>.json, checkpointed after writes) and start from it. */
  persistStateDir?: string;
  /** Run these chains as forks of the given JSON-RPC URL instead of from the baked state. */
  forks?: Readonly<Record<number, string>>;
}

/** Baked states usable for `chainIds`: the committed ones, or a cache baked now when those are stale. */
async function resolveStateDir(chainIds: readonly number[], options: StartChainNetworkOptions): Promise<string> {
  const committed = options.stateDir ?? chainStateDir;
  if (chainIds.length === 0) return committed;
  const fingerprint = computeStateFingerprint();
  const reason = staleReason(chainIds, committed, fingerprint);
  if (!reason) return committed;
  const cache = join(tmpdir(), 'stablepay-chain-state', fingerprint.slice(0, 16));
  if (!staleReason(chainIds, cache, fingerprint)) return cache;
  options.logger?.warn?.(
    `baked chain state in ${committed} is not usable (${reason}); baking into ${cache}. Run: npx tsx chains/baked/bake-state.ts`,
  );
  mkdirSync(cache, { recursive: true });
  const { bakeStates } = await import('../baked/bake-state.ts');
  await bakeStates(chainIds, cache);
  return cache;
}

export async function startChainNetwork(options: StartChainNetworkOptions = {}): Promise<ChainNetwork> {
  const chainIds = [...new Set(options.chains ?? CHAIN_IDS)];
  for (const id of chainIds) if (!findChain(id)) throw new UnknownChainError(id, [...CHAIN_IDS]);
  const forks = new Map(Object.entries(options.forks ?? {}).map(([id, url]) => [Number(id), url] as const));
  for (const id of forks.keys()) if (!chainIds.includes(id)) throw new UnknownChainError(id, chainIds);
  const stateDir = await resolveStateDir(
    chainIds.filter((id) => !forks.has(id)),
    options,
  );
  const events = createChainEvents();
  let timeOffsetMs: number | undefined;

  const supervised = new Map<number, SupervisedChain>();
  const handles = new Map<number, ChainHandle>();
  for (const chainId of chainIds) {
    const forkUrl = forks.get(chainId);
    const path = forkUrl ? undefined : statePath(chainId, stateDir);
    if (path && !existsSync(path)) throw new UnknownChainError(chainId, []);
    supervised.set(
      chainId,
      new SupervisedChain({
        chainId,
        ...(path ? { statePath: path } : {}),
        ...(options.persistStateDir && !forkUrl ? { persistPath: join(options.persistStateDir, `chain-${chainId}.json`) } : {}),
        ...(forkUrl ? { forkUrl } : {}),
        ...(options.host ? { host: options.host } : {}),
        events,
        logger: options.logger,
        maxRestarts: options.maxRestarts,
        restartWindowMs: options.restartWindowMs,
        onRestarted: async () => {
          const handle = handles.get(chainId);
          if (!handle) return;
          forgetChainTime(handle);
          if (timeOffsetMs !== undefined) await syncChainTime(handle, Date.now() + timeOffsetMs);
        },
      }),
    );
  }
  const stopAll = async (): Promise<void> => {
    await Promise.allSettled([...supervised.values()].map((s) => s.stop()));
  };
  // The EVM side (viem clients, the bundler's helpers) loads while the Anvil processes boot.
  const starting = Promise.allSettled([...supervised.values()].map((s) => s.start()));
  const loading = import('./build-chain-network.ts');
  loading.catch(() => undefined);
  const started = await starting;
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const { buildChainNetwork } = await loading.catch(async (error: unknown) => {
    await stopAll();
    throw error;
  });
  const network = buildChainNetwork({
    processes: supervised,
    events,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.gasPrices ? { gasPrices: options.gasPrices } : {}),
    forks,
    onSynced: (unixMs) => {
      timeOffsetMs = unixMs - Date.now();
    },
    stop: stopAll,
  });
  for (const [chainId, handle] of network.chains) handles.set(chainId, handle);
  return network;
}
