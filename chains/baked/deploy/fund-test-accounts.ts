// The test accounts handed to implementers and to the conformance suite (test-accounts.ts), funded once at
// bake time: native gas money and every token of the chain, minted as each issuer mints (contracts/mint-calls.ts). A
// network starts with them funded, instead of signing and mining a dozen transactions per chain at every start (about
// 0.5 s and 0.6 CPU-seconds per network, three networks at once in a black-box run with spare instances).
import { parseEther } from 'viem';
import { TOKENS } from '@stablepay/contract/chain-table';
import { sendTransaction } from '../../clients/send-transaction.ts';
import { mintCalls } from '../../contracts/mint-calls.ts';
import { tokenVariant } from '../../contracts/token-variants.ts';
import { TEST_ACCOUNT_NATIVE, TEST_ACCOUNT_TOKENS, testAccounts } from '../../test-accounts.ts';
import type { BakeContext } from './bake-context.ts';

export async function fundTestAccounts(ctx: BakeContext): Promise<void> {
  for (const account of testAccounts()) {
    await ctx.testClient.setBalance({ address: account.address, value: parseEther(TEST_ACCOUNT_NATIVE) });
    for (const symbol of TOKENS) {
      const token = ctx.chain.tokens[symbol];
      const variant = tokenVariant(ctx.chain.chainId, symbol);
      if (!token || !variant) continue;
      const units = TEST_ACCOUNT_TOKENS * 10n ** BigInt(token.decimals);
      for (const call of mintCalls(variant.kind, account.address, units))
        await sendTransaction(ctx.publicClient, ctx.operator, {
          to: token.address,
          data: call.data,
          purpose: `fund test account ${account.address} with ${units} ${symbol} units (${call.functionName})`,
        });
    }
  }
}
