// A ChainNetwork on chains someone else runs (the conformance suite in a black-box run, or `stablepay chains`), given
// their JSON-RPC URLs. We start nothing and stop nothing; a chain that stops answering is the owner's problem, and
// shows up as a failed RPC call like any other.
import { buildChainNetwork, type ChainNetwork } from './build-chain-network.ts';
import { createChainEvents, type ChainLogger } from '../clients/chain-events.ts';
import type { ChainProcess } from './chain-handle.ts';
import { CHAIN_IDS, findChain } from '@stablepay/contract/chain-table';
import { ChainLayerError, UnknownChainError } from '../errors.ts';

export interface AttachChainNetworkOptions {
  /** chainId -> JSON-RPC URL. */
  rpcUrls: ReadonlyMap<number, string>;
  seed?: string;
  logger?: ChainLogger;
  gasPrices?: Partial<Record<number, bigint>>;
}

export class ChainNotReachableError extends ChainLayerError {
  override name = 'ChainNotReachableError';
  constructor(chainId: number, rpcUrl: string, details: string) {
    super(`Chain ${chainId} at ${rpcUrl} cannot be used.`, { details });
  }
}

async function chainIdAt(rpcUrl: string): Promise<number> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json()) as { result?: string };
  return Number(body.result);
}

function externalChain(rpcUrl: string): ChainProcess {
  return {
    rpcUrl,
    pid: 0,
    supervisorPid: 0,
    status: 'running',
    ready: async () => undefined,
    noteWrite: () => undefined,
    checkpoint: async () => undefined,
  };
}

export async function attachChainNetwork(options: AttachChainNetworkOptions): Promise<ChainNetwork> {
  const processes = new Map<number, ChainProcess>();
  for (const [chainId, rpcUrl] of options.rpcUrls) {
    if (!findChain(chainId)) throw new UnknownChainError(chainId, [...CHAIN_IDS]);
    let answered: number;
    try {
      answered = await chainIdAt(rpcUrl);
    } catch (error) {
      throw new ChainNotReachableError(chainId, rpcUrl, (error as Error).message);
    }
    if (answered !== chainId) throw new ChainNotReachableError(chainId, rpcUrl, `eth_chainId answered ${answered}`);
    processes.set(chainId, externalChain(rpcUrl));
  }
  return buildChainNetwork({
    processes,
    events: createChainEvents(),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.gasPrices ? { gasPrices: options.gasPrices } : {}),
    stop: async () => undefined,
  });
}
