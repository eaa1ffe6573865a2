// viem clients for one local chain: reads, Anvil test actions, and the simulator's own signers.
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Chain,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { findChain } from '../reference-data/chains.ts';

export interface ChainClients {
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  testClient: TestClient<'anvil', Transport, Chain>;
  walletFor(account: Account): WalletClient<Transport, Chain, Account>;
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

export function createChainClients(chainId: number, rpcUrl: string): ChainClients {
  const chain = defineLocalChain(chainId, rpcUrl);
  const transport = http(rpcUrl, { retryCount: 0, batch: false });
  return {
    chain,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    testClient: createTestClient({ chain, transport, mode: 'anvil' }),
    walletFor: (account) => createWalletClient({ chain, transport, account }),
  };
}
