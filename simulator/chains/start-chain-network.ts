// Starts the five local chains (or a subset) from their baked state, ready in well under a second.
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { bakeStates, staleReason, statePath } from './bake-state.ts';
import { paymasterAddress } from './bake/deploy-paymaster.ts';
import { createChainEvents, type ChainEvents, type ChainLogger } from './chain-events.ts';
import { createChainHandle, type ChainHandle } from './chain-handle.ts';
import { CHAIN_IDS, findChain, type TokenSymbol } from '../reference-data/chains.ts';
import { DEFAULT_GAS_PRICES_WEI } from './gas-price.ts';
import { UnknownChainError, UnsupportedTokenError } from './errors.ts';
import { chainStateDir } from './paths.ts';
import { ENTRY_POINT_ADDRESS, SIMPLE_ACCOUNT_FACTORY_ADDRESS, feeCollector, gasTreasury } from './roles.ts';
import { computeStateFingerprint } from './state-fingerprint.ts';
import { SupervisedChain } from './supervise-chain.ts';
import { forgetChainTime, syncChainTime } from './sync-time.ts';

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
}

export interface ChainNetwork {
  readonly chains: ReadonlyMap<number, ChainHandle>;
  readonly events: ChainEvents;
  readonly seed: string;
  /** Receives the service fee of every payment. */
  readonly feeCollector: Address;
  /** Receives the gas customers pay in tokens. */
  readonly gasTreasury: Address;
  readonly entryPoint: Address;
  readonly accountFactory: Address;
  readonly paymaster: Address;
  /** The handle of `chainId`; throws UnknownChainError for a chain that is not running. */
  chain(chainId: number): ChainHandle;
  tokenAddress(chainId: number, token: TokenSymbol): Address;
  tokenDecimals(chainId: number, token: TokenSymbol): number;
  /** Set every chain's block time to `unixMs` (never backwards). Pass it to `clock.onAdvance`. */
  syncTime: (unixMs: number) => Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_SEED = 'stablepay-simulator';

/** Baked states usable for `chainIds`: the committed ones, or a cache baked now when those are stale. */
async function resolveStateDir(chainIds: readonly number[], options: StartChainNetworkOptions): Promise<string> {
  const committed = options.stateDir ?? chainStateDir;
  const fingerprint = computeStateFingerprint();
  const reason = staleReason(chainIds, committed, fingerprint);
  if (!reason) return committed;
  const cache = join(tmpdir(), 'stablepay-chain-state', fingerprint.slice(0, 16));
  if (!staleReason(chainIds, cache, fingerprint)) return cache;
  options.logger?.warn?.(`baked chain state in ${committed} is not usable (${reason}); baking into ${cache}. Run: npx tsx simulator/chains/bake-state.ts`);
  mkdirSync(cache, { recursive: true });
  await bakeStates(chainIds, cache);
  return cache;
}

export async function startChainNetwork(options: StartChainNetworkOptions = {}): Promise<ChainNetwork> {
  const chainIds = [...new Set(options.chains ?? CHAIN_IDS)];
  for (const id of chainIds) if (!findChain(id)) throw new UnknownChainError(id, [...CHAIN_IDS]);
  const stateDir = await resolveStateDir(chainIds, options);
  const events = createChainEvents();
  let timeOffsetMs: number | undefined;
  let lastSyncedMs = 0;

  const supervised = new Map<number, SupervisedChain>();
  const handles = new Map<number, ChainHandle>();
  for (const chainId of chainIds) {
    const path = statePath(chainId, stateDir);
    if (!existsSync(path)) throw new UnknownChainError(chainId, []);
    supervised.set(
      chainId,
      new SupervisedChain({
        chainId,
        statePath: path,
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
  const started = await Promise.allSettled([...supervised.values()].map((s) => s.start()));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.allSettled([...supervised.values()].map((s) => s.stop()));
    throw failed.reason;
  }
  for (const [chainId, s] of supervised) {
    handles.set(chainId, createChainHandle(s, findChain(chainId)!, options.gasPrices?.[chainId] ?? DEFAULT_GAS_PRICES_WEI[chainId] ?? 1_000_000_000n));
  }

  const chain = (chainId: number): ChainHandle => {
    const handle = handles.get(chainId);
    if (!handle) throw new UnknownChainError(chainId, [...handles.keys()]);
    return handle;
  };
  const token = (chainId: number, symbol: TokenSymbol) => {
    const entry = chain(chainId).entry.tokens[symbol];
    if (!entry) throw new UnsupportedTokenError(chainId, symbol);
    return entry;
  };

  return {
    chains: handles,
    events,
    seed: options.seed ?? DEFAULT_SEED,
    feeCollector,
    gasTreasury,
    entryPoint: ENTRY_POINT_ADDRESS,
    accountFactory: SIMPLE_ACCOUNT_FACTORY_ADDRESS,
    paymaster: paymasterAddress(),
    chain,
    tokenAddress: (chainId, symbol) => token(chainId, symbol).address,
    tokenDecimals: (chainId, symbol) => token(chainId, symbol).decimals,
    syncTime: async (unixMs: number) => {
      // Same second as last time: nothing to move (the chains' clocks run on by themselves).
      if (unixMs < lastSyncedMs || Math.floor(unixMs / 1000) === Math.floor(lastSyncedMs / 1000)) return;
      lastSyncedMs = unixMs;
      timeOffsetMs = unixMs - Date.now();
      await Promise.all([...handles.values()].filter((h) => h.status === 'running').map((h) => syncChainTime(h, unixMs)));
    },
    stop: async () => {
      await Promise.allSettled([...supervised.values()].map((s) => s.stop()));
    },
  };
}
