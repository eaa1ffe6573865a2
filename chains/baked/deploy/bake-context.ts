// What every bake step needs: the clients of the chain being baked and the simulator's signers.
import type { Account } from 'viem';
import type { ChainInfo } from '@stablepay/contract/chain-table';
import {
  createChainClients,
  type ChainPublicClient,
  type ChainTestClient,
  type ChainWalletClient,
} from '../../clients/create-chain-clients.ts';
import { operatorAccount, usdcProxyAdmin } from '../../roles.ts';

export interface BakeContext {
  chain: ChainInfo;
  publicClient: ChainPublicClient;
  testClient: ChainTestClient;
  operator: ChainWalletClient;
  /** The FiatTokenProxy admin, impersonated (its key is only needed to upgrade the proxy). */
  proxyAdmin: ChainWalletClient;
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
