// One running chain as the rest of the simulator sees it: ids, URL, viem clients, the simulator's signers on it,
// and raw JSON-RPC access (used by the web3 proxy's pass-through).
import type { Chain } from 'viem';
import type { ChainInfo } from '@stablepay/contract/chain-table';
import {
  createChainClients,
  type ChainPublicClient,
  type ChainTestClient,
  type ChainWalletClient,
} from '../clients/create-chain-clients.ts';
import { postJson } from '../anvil/post-json.ts';
import { bundlerAccount, operatorAccount } from '../roles.ts';
import type { ChainStatus } from '../anvil/supervise-chain.ts';

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RawRpcResponse = { result: unknown; error?: undefined } | { error: JsonRpcErrorObject; result?: undefined };

export interface ChainHandle {
  readonly chainId: number;
  readonly name: string;
  readonly entry: ChainInfo;
  readonly rpcUrl: string;
  /** Pid of the chain's anvil process (changes after a restart). */
  readonly pid: number;
  /** Pid of the watchdog around it (POSIX). */
  readonly supervisorPid: number;
  readonly status: ChainStatus;
  /** Price every operation pays per gas on this chain (wei); the chain's base fee is 0. */
  readonly gasPriceWei: bigint;
  readonly chain: Chain;
  readonly publicClient: ChainPublicClient;
  readonly testClient: ChainTestClient;
  readonly operator: ChainWalletClient;
  readonly bundler: ChainWalletClient;
  /** Wait until the chain can serve (through a restart); throws ChainUnavailableError when it cannot. */
  ready(): Promise<void>;
  /** Forward one JSON-RPC call to Anvil and return its result or error object unchanged. */
  rawRequest(method: string, params: unknown): Promise<RawRpcResponse>;
  /** Record that we changed chain state (drives crash checkpoints). */
  noteWrite(): void;
  checkpoint(): Promise<void>;
}

/** What a handle needs of the process behind it: a supervised local Anvil, or a chain someone else runs. */
export interface ChainProcess {
  readonly rpcUrl: string;
  readonly pid: number;
  readonly supervisorPid: number;
  readonly status: ChainStatus;
  ready(): Promise<void>;
  noteWrite(): void;
  checkpoint(): Promise<void>;
}

let nextId = 1;

export function createChainHandle(supervised: ChainProcess, entry: ChainInfo, gasPriceWei: bigint): ChainHandle {
  const clients = createChainClients(entry.chainId, supervised.rpcUrl);
  return {
    chainId: entry.chainId,
    name: entry.name,
    entry,
    get rpcUrl() {
      return supervised.rpcUrl;
    },
    get pid() {
      return supervised.pid;
    },
    get supervisorPid() {
      return supervised.supervisorPid;
    },
    get status() {
      return supervised.status;
    },
    gasPriceWei,
    chain: clients.chain,
    publicClient: clients.publicClient,
    testClient: clients.testClient,
    operator: clients.walletFor(operatorAccount),
    bundler: clients.walletFor(bundlerAccount),
    ready: () => supervised.ready(),
    async rawRequest(method, params) {
      await supervised.ready();
      const body = (await postJson(supervised.rpcUrl, { jsonrpc: '2.0', id: nextId++, method, params: params ?? [] })) as {
        result?: unknown;
        error?: JsonRpcErrorObject;
      };
      return body.error ? { error: body.error } : { result: body.result ?? null };
    },
    noteWrite: () => supervised.noteWrite(),
    checkpoint: () => supervised.checkpoint(),
  };
}
