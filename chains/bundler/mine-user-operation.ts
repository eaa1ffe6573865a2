// Puts one accepted user operation into its own block: simulate handleOps exactly as it will run (state may have
// moved since the operation was accepted), send it from the bundler EOA, and read what the receipt says. Throws a
// UserOperationRejectedError when the EntryPoint would now refuse it, an RpcError when the chain does not take it.
// findMinedUserOperation reads the same settlement back for an operation that is already on the chain.
import { getAbiItem, type Hex, type TransactionReceipt } from 'viem';
import { entryPoint07Abi } from 'viem/account-abstraction';
import { ENTRY_POINT_ADDRESS } from '../roles.ts';
import type { ChainHandle } from '../network/chain-handle.ts';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { tokenPerNative } from '../clients/gas-price.ts';
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
  const settlement = await settlementOfReceipt(handle, receipt, userOpHash, token);
  if (!settlement)
    throw new RpcError(
      RPC.INTERNAL_ERROR,
      `Bundle ${receipt.transactionHash} on chain ${handle.chainId} carried no UserOperationEvent for ${userOpHash}`,
    );
  return settlement;
}

/**
 * The settlement of an operation already on the chain (its EntryPoint UserOperationEvent), or undefined when it was
 * never mined: how durable mode tells, after a restart, an accepted operation that made it into a block from one
 * that was still in the mempool.
 */
export async function findMinedUserOperation(
  handle: ChainHandle,
  userOpHash: Hex,
  token: TokenSymbol | undefined,
): Promise<UserOperationSettlement | undefined> {
  await handle.ready();
  // Only the latest blocks: an outcome is recorded within moments of its block, so an unrecorded one is among the
  // last few; and on a forked chain a search from block 0 would ask the upstream node for its whole history.
  const latest = await handle.publicClient.getBlockNumber();
  const logs = await handle.publicClient.getLogs({
    address: ENTRY_POINT_ADDRESS,
    event: USER_OPERATION_EVENT,
    args: { userOpHash },
    fromBlock: latest > SEARCH_BLOCKS ? latest - SEARCH_BLOCKS : 0n,
    toBlock: latest,
  });
  const log = logs[0];
  if (!log?.transactionHash) return undefined;
  const receipt = await handle.publicClient.getTransactionReceipt({ hash: log.transactionHash });
  return settlementOfReceipt(handle, receipt, userOpHash, token);
}

/** How far back findMinedUserOperation looks. */
const SEARCH_BLOCKS = 1_000n;

const USER_OPERATION_EVENT = getAbiItem({ abi: entryPoint07Abi, name: 'UserOperationEvent' });

async function settlementOfReceipt(
  handle: ChainHandle,
  receipt: TransactionReceipt,
  userOpHash: Hex,
  token: TokenSymbol | undefined,
): Promise<UserOperationSettlement | undefined> {
  const block = await handle.publicClient.getBlock({ blockHash: receipt.blockHash });
  return readSettlement({
    chainId: handle.chainId,
    userOpHash,
    receipt,
    blockTimestampMs: Number(block.timestamp) * 1000,
    nativeUsdMicros: tokenPerNative(handle.entry.nativeUsdPrice, 6),
    token,
  });
}
