// The chains file: everything an implementation (or a person) needs to use the chains we run — RPC URLs, token
// addresses and decimals, the ERC-4337 contracts, funded test accounts with their keys, and which keys hold the USDC
// admin roles. `stablepay chains` prints it; a black-box conformance run passes its path as STABLEPAY_CHAINS_FILE.
// The JSON Schema beside this file (chains-file.schema.json) describes the same shape for non-TypeScript readers.
import type { Address, Hex } from 'viem';
import { CHAINS_FILE_ENV, rpcUrlEnv } from './chains-env.ts';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainNetwork } from '../network/build-chain-network.ts';
import { TOKENS, type TokenSymbol } from '@stablepay/contract/chain-table';
import { OPERATOR_KEY, USDC_PROXY_ADMIN_KEY, bundlerAccount } from '../roles.ts';
import { TEST_ACCOUNT_NATIVE, TEST_ACCOUNT_TOKENS, testAccounts, type TestAccount } from '../test-accounts.ts';

export const CHAINS_FILE_VERSION = 1;
/** Environment variables a black-box target reads. */
export { CHAINS_FILE_ENV, rpcUrlEnv } from './chains-env.ts';

export interface KeyHolder {
  address: Address;
  privateKey: Hex;
}

export interface ChainsFileToken {
  address: Address;
  decimals: number;
}

export interface ChainsFileChain {
  chainId: number;
  name: string;
  nativeSymbol: string;
  rpcUrl: string;
  /** The URL this chain forks, or null for our baked state (then the keys below hold the roles named). */
  forkOf: string | null;
  tokens: Partial<Record<TokenSymbol, ChainsFileToken>>;
}

export interface ChainsFile {
  version: typeof CHAINS_FILE_VERSION;
  chains: ChainsFileChain[];
  /** ERC-4337 v0.7 (same addresses on every chain, as on mainnet). */
  entryPoint: Address;
  accountFactory: Address;
  /** The token gas paymaster of the baked state (absent on forks of real chains). */
  paymaster: Address;
  /** Funded on every baked chain with `funding` each. */
  testAccounts: TestAccount[];
  funding: { native: string; tokens: string };
  /** USDC (FiatTokenV2_2) roles on the baked chains: owner, masterMinter, pauser, blacklister and minter are one key. */
  usdcRoles: {
    owner: KeyHolder;
    masterMinter: KeyHolder;
    pauser: KeyHolder;
    blacklister: KeyHolder;
    minter: KeyHolder;
    proxyAdmin: KeyHolder;
  };
  /** Owner of the USDT replicas (issue/mint, addBlackList) on the baked chains. */
  usdtOwner: KeyHolder;
  /** Sends the simulator's bundles; an implementation should use its own key. */
  simulatorBundler: Address;
}

const holder = (privateKey: Hex): KeyHolder => ({ address: privateKeyToAccount(privateKey).address, privateKey });

/** `rpcUrlFor` lets a container see the chains at the bridge gateway instead of 127.0.0.1. */
export function chainsFile(network: ChainNetwork, rpcUrlFor: (url: string) => string = (url) => url): ChainsFile {
  const operator = holder(OPERATOR_KEY);
  return {
    version: CHAINS_FILE_VERSION,
    chains: [...network.chains.values()].map((handle) => {
      const tokens: Partial<Record<TokenSymbol, ChainsFileToken>> = {};
      for (const symbol of TOKENS) {
        const token = handle.entry.tokens[symbol];
        if (token) tokens[symbol] = { address: token.address, decimals: token.decimals };
      }
      return {
        chainId: handle.chainId,
        name: handle.name,
        nativeSymbol: handle.entry.nativeSymbol,
        rpcUrl: rpcUrlFor(handle.rpcUrl),
        forkOf: network.forks.get(handle.chainId) ?? null,
        tokens,
      };
    }),
    entryPoint: network.entryPoint,
    accountFactory: network.accountFactory,
    paymaster: network.paymaster,
    testAccounts: testAccounts(),
    funding: { native: TEST_ACCOUNT_NATIVE, tokens: String(TEST_ACCOUNT_TOKENS) },
    usdcRoles: {
      owner: operator,
      masterMinter: operator,
      pauser: operator,
      blacklister: operator,
      minter: operator,
      proxyAdmin: holder(USDC_PROXY_ADMIN_KEY),
    },
    usdtOwner: operator,
    simulatorBundler: bundlerAccount.address,
  };
}

/** The environment a black-box target gets: one RPC URL per chain, plus the file's path. */
export function chainsEnvironment(file: ChainsFile, filePath: string): Record<string, string> {
  return { [CHAINS_FILE_ENV]: filePath, ...Object.fromEntries(file.chains.map((c) => [rpcUrlEnv(c.chainId), c.rpcUrl])) };
}
