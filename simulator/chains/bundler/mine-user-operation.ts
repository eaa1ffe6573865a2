// Puts one accepted user operation into its own block: simulate handleOps exactly as it will run (state may have
// moved since the operation was accepted), send it from the bundler EOA, and read what the receipt says. Throws a
// UserOperationRejectedError when the EntryPoint would now refuse it, an RpcError when the chain does not take it.
import type { Hex } from 'viem';
import type { ChainHandle } from '../chain-handle.ts';
import type { TokenSymbol } from '../../reference-data/chains.ts';
import { tokenPerNative } from '../gas-price.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import { RPC, RpcError } from './rpc-error.ts';
import { readSettlement, type UserOperationSettlement } from './settlement.ts';
import { sendBundle, simulateBundle } from './submit-bundle.ts';

export async function mineUserOperation(
  handle: ChainHandle,
  op: UserOperationV07,
  userOpHash: Hex,
  token: TokenSymbol | undefined,
  simulated?: Hex,
): Promise<UserOperationSettlement> {
  await handle.ready();
  const data = simulated ?? (await simulateBundle(handle, op));
  const receipt = await sendBundle(handle, op, data);
  const block = await handle.publicClient.getBlock({ blockHash: receipt.blockHash });
  const settlement = readSettlement({
    chainId: handle.chainId,
    userOpHash,
    receipt,
    blockTimestampMs: Number(block.timestamp) * 1000,
    nativeUsdMicros: tokenPerNative(handle.entry.nativeUsdPrice, 6),
    token,
  });
  if (!settlement) throw new RpcError(RPC.INTERNAL_ERROR, `Bundle ${receipt.transactionHash} on chain ${handle.chainId} carried no UserOperationEvent for ${userOpHash}`);
  return settlement;
}
