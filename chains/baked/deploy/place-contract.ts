// Puts a contract at a fixed (canonical) address it could not be deployed to: deploy it anywhere with its real
// constructor, copy the runtime code and every storage slot the constructor wrote, then wipe the temporary copy.
// Only valid for contracts whose code does not embed its own address (none of ours does).
import { getContractAddress, type Address, type Hex } from 'viem';
import { accountIn, dumpState } from '../../anvil/dump-state.ts';
import { ChainLayerError } from '../../errors.ts';
import { sendTransaction } from '../../clients/send-transaction.ts';
import type { BakeContext } from './bake-context.ts';

export interface PlaceContractParameters {
  at: Address;
  /** Creation code including constructor arguments. */
  deployData: Hex;
  /** Deploy from this wallet (constructor msg.sender). Defaults to the operator. */
  from?: BakeContext['operator'];
  purpose: string;
}

export async function placeContract(ctx: BakeContext, params: PlaceContractParameters): Promise<void> {
  const wallet = params.from ?? ctx.operator;
  const receipt = await sendTransaction(ctx.publicClient, wallet, { data: params.deployData, purpose: `deploy ${params.purpose}` });
  const temporary = receipt.contractAddress;
  if (!temporary) throw new ChainLayerError(`Deploying ${params.purpose} created no contract.`);
  const state = await dumpState(ctx.testClient);
  const account = accountIn(state, temporary);
  if (!account) throw new ChainLayerError(`Deployed ${params.purpose} at ${temporary} but it is missing from the state dump.`);
  await ctx.testClient.setCode({ address: params.at, bytecode: account.code });
  for (const [slot, value] of Object.entries(account.storage) as [Hex, Hex][]) {
    await ctx.testClient.setStorageAt({ address: params.at, index: slot, value });
    await ctx.testClient.setStorageAt({ address: temporary, index: slot, value: `0x${'0'.repeat(64)}` });
  }
  await ctx.testClient.setCode({ address: temporary, bytecode: '0x' });
}

/** Address a CREATE from `from` at `nonce` lands on (exposed for tests and checks). */
export const createAddress = (from: Address, nonce: bigint): Address => getContractAddress({ from, nonce });
