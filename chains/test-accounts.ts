// Funded accounts handed to implementers and to the conformance suite (a black-box customer pays from them). Their
// keys are public on purpose, like the other simulator keys: local chains only. They are funded in every chain's
// baked state (baked/deploy/fund-test-accounts.ts), so a network started from it has them funded at once; on a fork of
// a real chain they hold what they hold there.
import { keccak256, stringToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

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
