// Funded accounts handed to implementers and to the conformance suite (a black-box customer pays from them). Their
// keys are public on purpose, like the other simulator keys: local chains only.
import { keccak256, parseEther, stringToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainNetwork } from '../network/build-chain-network.ts';
import { TOKENS } from '@stablepay/contract/chain-table';
import { fundAccount } from '../network/fund-account.ts';

export interface TestAccount {
  address: Address;
  privateKey: Hex;
}

export const TEST_ACCOUNT_COUNT = 4;
/** Native balance of each test account, in whole native units (ETH, POL, BNB). */
export const TEST_ACCOUNT_NATIVE = '1000';
/** Token balance of each test account, in whole tokens, for every token its chain has. */
export const TEST_ACCOUNT_TOKENS = 1_000_000n;

export function testAccounts(count = TEST_ACCOUNT_COUNT): TestAccount[] {
  return Array.from({ length: count }, (_, i) => {
    const privateKey = keccak256(stringToHex(`stablepay/simulator/test-account/${i}`));
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  });
}

/** Give every test account native gas money and tokens on every chain of `network` (not on forks of real chains). */
export async function fundTestAccounts(network: ChainNetwork, accounts = testAccounts()): Promise<void> {
  await Promise.all(
    [...network.chains.values()]
      .filter((handle) => !network.forks.has(handle.chainId))
      .map(async (handle) => {
        for (const account of accounts) {
          await handle.testClient.setBalance({ address: account.address, value: parseEther(TEST_ACCOUNT_NATIVE) });
          for (const symbol of TOKENS) {
            const token = handle.entry.tokens[symbol];
            if (token)
              await fundAccount(network, handle.chainId, symbol, account.address, TEST_ACCOUNT_TOKENS * 10n ** BigInt(token.decimals));
          }
        }
      }),
  );
}
