// The RPC answers of eth_getUserOperationReceipt and eth_getUserOperationByHash (ERC-7769 shapes). Operations this
// bundler did not see (e.g. sent before a simulator restart) are found through their UserOperationEvent log.
import { decodeEventLog, decodeFunctionData, encodeEventTopics, numberToHex, type Address, type Hex } from 'viem';
import { entryPoint07Abi, formatUserOperationRequest, toUserOperation } from 'viem/account-abstraction';
import type { ChainHandle } from '../network/chain-handle.ts';
import { ENTRY_POINT_ADDRESS } from '../roles.ts';
import type { Bundler } from './create-bundler.ts';
import { userOperationHash } from './create-bundler.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';

interface RpcLog {
  topics: Hex[];
  data: Hex;
  transactionHash: Hex;
  blockHash: Hex;
  blockNumber: Hex;
}

async function findEventLog(handle: ChainHandle, userOpHash: Hex): Promise<RpcLog | undefined> {
  const topics = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', args: { userOpHash } });
  const res = await handle.rawRequest('eth_getLogs', [{ address: ENTRY_POINT_ADDRESS, fromBlock: '0x0', toBlock: 'latest', topics }]);
  return (res.result as RpcLog[] | undefined)?.[0];
}

export async function getUserOperationReceiptView(bundler: Bundler, handle: ChainHandle, userOpHash: Hex): Promise<unknown> {
  const stored = bundler.getUserOperation(handle.chainId, userOpHash);
  const txHash = stored?.txHash ?? (await findEventLog(handle, userOpHash))?.transactionHash;
  if (!txHash) return null;
  const receipt = (await handle.rawRequest('eth_getTransactionReceipt', [txHash])).result as { logs: RpcLog[] } | null;
  if (!receipt) return null;
  let event:
    | { sender: Address; paymaster: Address; nonce: bigint; success: boolean; actualGasCost: bigint; actualGasUsed: bigint }
    | undefined;
  for (const log of receipt.logs) {
    try {
      const decoded = decodeEventLog({ abi: entryPoint07Abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      if (decoded.eventName === 'UserOperationEvent' && decoded.args.userOpHash === userOpHash) event = decoded.args;
    } catch {
      // not an EntryPoint event
    }
  }
  if (!event) return null;
  return {
    userOpHash,
    entryPoint: ENTRY_POINT_ADDRESS,
    sender: event.sender,
    nonce: numberToHex(event.nonce),
    paymaster: event.paymaster,
    actualGasCost: numberToHex(event.actualGasCost),
    actualGasUsed: numberToHex(event.actualGasUsed),
    success: event.success,
    ...(stored?.settlement?.revertReason ? { reason: stored.settlement.revertReason } : {}),
    logs: receipt.logs,
    receipt,
  };
}

export async function getUserOperationByHashView(bundler: Bundler, handle: ChainHandle, userOpHash: Hex): Promise<unknown> {
  const stored = bundler.getUserOperation(handle.chainId, userOpHash);
  if (stored) {
    return {
      userOperation: formatUserOperationRequest(stored.userOperation),
      entryPoint: ENTRY_POINT_ADDRESS,
      transactionHash: stored.txHash ?? null,
      blockHash: stored.blockHash ?? null,
      blockNumber: stored.blockNumber === undefined ? null : numberToHex(stored.blockNumber),
    };
  }
  const log = await findEventLog(handle, userOpHash);
  if (!log) return null;
  const tx = (await handle.rawRequest('eth_getTransactionByHash', [log.transactionHash])).result as { input: Hex } | null;
  if (!tx) return null;
  const { args } = decodeFunctionData({ abi: entryPoint07Abi, data: tx.input });
  for (const packed of (args?.[0] ?? []) as Parameters<typeof toUserOperation>[0][]) {
    const op = toUserOperation(packed) as unknown as UserOperationV07;
    if (userOperationHash(handle.chainId, op) === userOpHash) {
      return {
        userOperation: formatUserOperationRequest(op),
        entryPoint: ENTRY_POINT_ADDRESS,
        transactionHash: log.transactionHash,
        blockHash: log.blockHash,
        blockNumber: log.blockNumber,
      };
    }
  }
  return null;
}
