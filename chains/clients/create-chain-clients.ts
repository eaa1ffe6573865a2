// viem clients for one local chain: reads, Anvil test actions, and the simulator's own signers.
//
// Each client carries only the actions the chain layer and its tests call, built with viem's `createClient` and
// `extend` from its tree-shakable actions. `createPublicClient` and friends would carry every action viem has, and
// loading those (the public ones build and hash several ABI items as they load) was a tenth of `stablepay start`'s
// CPU before its banner. An action missing here is one line to add.
import {
  createClient,
  defineChain,
  http,
  type Account,
  type Chain,
  type Client,
  type PublicActions,
  type PublicRpcSchema,
  type TestActions,
  type TestClient,
  type TestRpcSchema,
  type Transport,
  type WalletActions,
  type WalletRpcSchema,
} from 'viem';
import {
  call,
  dumpState,
  getBalance,
  getBlock,
  getBlockNumber,
  getChainId,
  getCode,
  getLogs,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  impersonateAccount,
  mine,
  readContract,
  sendTransaction,
  setBalance,
  setCode,
  setStorageAt,
  stopImpersonatingAccount,
} from 'viem/actions';
import { findChain } from '@stablepay/contract/chain-table';

/** The read actions the chain layer uses. */
export type ChainReadActions = Pick<
  PublicActions<Transport, Chain>,
  | 'call'
  | 'getBalance'
  | 'getBlock'
  | 'getBlockNumber'
  | 'getChainId'
  | 'getCode'
  | 'getLogs'
  | 'getTransaction'
  | 'getTransactionCount'
  | 'getTransactionReceipt'
  | 'readContract'
>;
/** The Anvil actions the chain layer uses (`mode: 'anvil'` picks their `anvil_` method names). */
export type ChainTestActions = Pick<
  TestActions,
  'dumpState' | 'impersonateAccount' | 'mine' | 'setBalance' | 'setCode' | 'setStorageAt' | 'stopImpersonatingAccount'
>;
export type ChainWalletActions = Pick<WalletActions<Chain, Account>, 'sendTransaction'>;

export type ChainPublicClient = Client<Transport, Chain, undefined, PublicRpcSchema, ChainReadActions>;
export type ChainTestClient = Client<Transport, Chain, undefined, TestRpcSchema<'anvil'>, { mode: 'anvil' } & ChainTestActions>;
export type ChainWalletClient = Client<Transport, Chain, Account, WalletRpcSchema, ChainWalletActions>;

export interface ChainClients {
  chain: Chain;
  publicClient: ChainPublicClient;
  testClient: ChainTestClient;
  walletFor(account: Account): ChainWalletClient;
}

export function defineLocalChain(chainId: number, rpcUrl: string): Chain {
  const entry = findChain(chainId);
  return defineChain({
    id: chainId,
    name: `${entry?.name ?? `Chain ${chainId}`} (local)`,
    nativeCurrency: { name: entry?.nativeSymbol ?? 'ETH', symbol: entry?.nativeSymbol ?? 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

const readActions = (client: Client<Transport, Chain>): ChainReadActions => ({
  call: (args) => call(client, args),
  getBalance: (args) => getBalance(client, args),
  getBlock: (args) => getBlock(client, args),
  getBlockNumber: (args) => getBlockNumber(client, args),
  getChainId: () => getChainId(client),
  getCode: (args) => getCode(client, args),
  // viem's getLogs return type does not narrow through a wrapper; its own decorator casts the same way.
  getLogs: ((args?: Parameters<typeof getLogs>[1]) => getLogs(client, args)) as ChainReadActions['getLogs'],
  getTransaction: (args) => getTransaction(client, args),
  getTransactionCount: (args) => getTransactionCount(client, args),
  getTransactionReceipt: (args) => getTransactionReceipt(client, args),
  readContract: (args) => readContract(client, args),
});

const testActions = (base: Client<Transport, Chain>): ChainTestActions => {
  // The test actions read `mode` from the client, which the `extend` before this one adds.
  const client = base as unknown as TestClient<'anvil', Transport, Chain>;
  return {
    dumpState: () => dumpState(client),
    impersonateAccount: (args) => impersonateAccount(client, args),
    mine: (args) => mine(client, args),
    setBalance: (args) => setBalance(client, args),
    setCode: (args) => setCode(client, args),
    setStorageAt: (args) => setStorageAt(client, args),
    stopImpersonatingAccount: (args) => stopImpersonatingAccount(client, args),
  };
};

const walletActions = (client: Client<Transport, Chain, Account>): ChainWalletActions => ({
  sendTransaction: (args) => sendTransaction(client, args),
});

/**
 * The transport's options. A request that times out is sent once more (viem retries a time-out, never a JSON-RPC
 * refusal such as a revert or a refused nonce): under libfaketime, which the conformance suite uses to move a
 * black-box target's clock, the time-out's timer runs on the moved clock, so a jump of minutes fires it while the chain's
 * answer is on its way. A 21-minute jump during the bundler's nonce read once failed a held payment (a repeat run of
 * 2026-12-07: "The request took too long to respond", the payment FAILED at the jump's instant).
 */
export const CHAIN_TRANSPORT = { retryCount: 1, batch: false } as const;

export function createChainClients(chainId: number, rpcUrl: string): ChainClients {
  const chain = defineLocalChain(chainId, rpcUrl);
  const transport = http(rpcUrl, CHAIN_TRANSPORT);
  return {
    chain,
    publicClient: createClient({ chain, transport, pollingInterval: 50, type: 'publicClient', name: 'Public Client' }).extend(
      readActions,
    ) as ChainPublicClient,
    testClient: createClient({ chain, transport, type: 'testClient', name: 'Test Client' })
      .extend(() => ({ mode: 'anvil' as const }))
      .extend(testActions) as ChainTestClient,
    walletFor: (account) =>
      createClient({ chain, transport, account, type: 'walletClient', name: 'Wallet Client' }).extend(walletActions) as ChainWalletClient,
  };
}
