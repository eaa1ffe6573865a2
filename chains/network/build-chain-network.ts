// Assembles the ChainNetwork the rest of the simulator uses from running chain processes, whoever runs them: our own
// supervised Anvils (start-chain-network.ts) or chains handed to us by URL (attach-chain-network.ts).
import type { Address } from 'viem';
import type { ChainEvents, ChainLogger } from '../clients/chain-events.ts';
import { createChainHandle, type ChainHandle, type ChainProcess } from './chain-handle.ts';
import { CHAIN_IDS, findChain, type TokenSymbol } from '@stablepay/contract/chain-table';
import { DEFAULT_GAS_PRICES_WEI } from '../clients/gas-price.ts';
import { UnknownChainError, UnsupportedTokenError } from '../errors.ts';
import { ENTRY_POINT_ADDRESS, PAYMASTER_ADDRESS, SIMPLE_ACCOUNT_FACTORY_ADDRESS, feeCollector, gasTreasury } from '../roles.ts';
import { syncChainTime } from './sync-time.ts';

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
  /** Chains running as forks of another endpoint (chainId -> the URL forked); empty for baked chains. */
  readonly forks: ReadonlyMap<number, string>;
  /** The handle of `chainId`; throws UnknownChainError for a chain that is not running. */
  chain(chainId: number): ChainHandle;
  tokenAddress(chainId: number, token: TokenSymbol): Address;
  tokenDecimals(chainId: number, token: TokenSymbol): number;
  /** Set every chain's block time to `unixMs` (never backwards). Pass it to `clock.onAdvance`. */
  syncTime: (unixMs: number) => Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_SEED = 'stablepay-simulator';

export interface BuildChainNetworkParameters {
  processes: ReadonlyMap<number, ChainProcess>;
  events: ChainEvents;
  seed?: string;
  logger?: ChainLogger;
  gasPrices?: Partial<Record<number, bigint>>;
  forks?: ReadonlyMap<number, string>;
  /** Remember where the network's clock is, so a restarted chain can be put back there. */
  onSynced?: (unixMs: number) => void;
  stop: () => Promise<void>;
}

export function buildChainNetwork(params: BuildChainNetworkParameters): ChainNetwork {
  const handles = new Map<number, ChainHandle>();
  for (const [chainId, process] of params.processes) {
    const entry = findChain(chainId);
    if (!entry) throw new UnknownChainError(chainId, [...CHAIN_IDS]);
    handles.set(
      chainId,
      createChainHandle(process, entry, params.gasPrices?.[chainId] ?? DEFAULT_GAS_PRICES_WEI[chainId] ?? 1_000_000_000n),
    );
  }
  let lastSyncedMs = 0;

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
    events: params.events,
    seed: params.seed ?? DEFAULT_SEED,
    feeCollector,
    gasTreasury,
    entryPoint: ENTRY_POINT_ADDRESS,
    accountFactory: SIMPLE_ACCOUNT_FACTORY_ADDRESS,
    paymaster: PAYMASTER_ADDRESS,
    forks: params.forks ?? new Map(),
    chain,
    tokenAddress: (chainId, symbol) => token(chainId, symbol).address,
    tokenDecimals: (chainId, symbol) => token(chainId, symbol).decimals,
    syncTime: async (unixMs: number) => {
      // Same second as last time: nothing to move (the chains' clocks run on by themselves).
      if (unixMs < lastSyncedMs || Math.floor(unixMs / 1000) === Math.floor(lastSyncedMs / 1000)) return;
      lastSyncedMs = unixMs;
      params.onSynced?.(unixMs);
      await Promise.all([...handles.values()].filter((h) => h.status === 'running').map((h) => syncChainTime(h, unixMs)));
    },
    stop: params.stop,
  };
}
