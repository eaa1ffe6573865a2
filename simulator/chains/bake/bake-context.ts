// What every bake step needs: the clients of the chain being baked and the simulator's signers.
import type { Account, Chain, PublicClient, TestClient, Transport, WalletClient } from 'viem';
import type { ChainInfo } from '../../reference-data/chains.ts';
import { createChainClients } from '../create-chain-clients.ts';
import { operatorAccount, usdcProxyAdmin } from '../roles.ts';

export interface BakeContext {
  chain: ChainInfo;
  publicClient: PublicClient<Transport, Chain>;
  testClient: TestClient<'anvil', Transport, Chain>;
  operator: WalletClient<Transport, Chain, Account>;
  /** The FiatTokenProxy admin, impersonated (its key is only needed to upgrade the proxy). */
  proxyAdmin: WalletClient<Transport, Chain, Account>;
}

export function createBakeContext(chain: ChainInfo, rpcUrl: string): BakeContext {
  const clients = createChainClients(chain.chainId, rpcUrl);
  return {
    chain,
    publicClient: clients.publicClient,
    testClient: clients.testClient,
    operator: clients.walletFor(operatorAccount),
    proxyAdmin: clients.walletFor({ address: usdcProxyAdmin, type: 'json-rpc' } as Account),
  };
}
