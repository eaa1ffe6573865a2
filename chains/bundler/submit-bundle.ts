// Puts one user operation on chain: simulate handleOps exactly as it will run, then sign and send it from the
// bundler EOA, and read the receipt. Runs inside the chain's bundle queue (one bundle at a time per chain).
import { encodeFunctionData, type Hex, type TransactionReceipt } from 'viem';
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction';
import type { ChainHandle } from '../network/chain-handle.ts';
import { ENTRY_POINT_ADDRESS, bundlerAccount } from '../roles.ts';
import { retryRefusedNonce, TransactionDroppedError } from '../clients/nonce-retry.ts';
import { waitForReceipt } from '../clients/send-transaction.ts';
import { decodeEntryPointError, revertDataOf } from './decode-entry-point-error.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import { RPC, RpcError } from './rpc-error.ts';

const BLOCK_GAS_LIMIT = 30_000_000n;
const bundlerNonces = new WeakMap<ChainHandle, number>();

export function bundleGasLimit(op: UserOperationV07): bigint {
  const total =
    op.verificationGasLimit +
    op.callGasLimit +
    op.preVerificationGas +
    (op.paymasterVerificationGasLimit ?? 0n) +
    (op.paymasterPostOpGasLimit ?? 0n);
  const gas = (total * 11n) / 10n + 100_000n;
  return gas > BLOCK_GAS_LIMIT ? BLOCK_GAS_LIMIT : gas;
}

/** Throws UserOperationRejectedError when the EntryPoint would refuse the operation. */
export async function simulateBundle(handle: ChainHandle, op: UserOperationV07): Promise<Hex> {
  const data = encodeFunctionData({
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(op)], bundlerAccount.address],
  });
  const res = await handle.rawRequest('eth_call', [
    { from: bundlerAccount.address, to: ENTRY_POINT_ADDRESS, data, gas: `0x${bundleGasLimit(op).toString(16)}` },
    'latest',
  ]);
  if (res.error) throw decodeEntryPointError(revertDataOf(res.error), res.error.message);
  return data;
}

export async function sendBundle(handle: ChainHandle, op: UserOperationV07, data: Hex): Promise<TransactionReceipt> {
  return retryRefusedNonce(
    async () => {
      const nonce =
        bundlerNonces.get(handle) ??
        (await handle.publicClient.getTransactionCount({ address: bundlerAccount.address, blockTag: 'pending' }));
      const signed = await bundlerAccount.signTransaction({
        type: 'eip1559',
        chainId: handle.chainId,
        nonce,
        to: ENTRY_POINT_ADDRESS,
        data,
        gas: bundleGasLimit(op),
        maxFeePerGas: op.maxFeePerGas,
        maxPriorityFeePerGas: op.maxPriorityFeePerGas,
      });
      const sent = await handle.rawRequest('eth_sendRawTransaction', [signed]);
      if (sent.error) {
        // The cached count is read again on the next send.
        bundlerNonces.delete(handle);
        throw new BundleRefused(handle.chainId, sent.error.message);
      }
      bundlerNonces.set(handle, nonce + 1);
      handle.noteWrite();
      try {
        return await waitForReceipt(handle.publicClient, sent.result as Hex);
      } catch (error) {
        if (error instanceof TransactionDroppedError) bundlerNonces.delete(handle);
        throw error;
      }
    },
    // Another sender from the bundler account (a second simulator on the same chains) used this nonce, or replaced this
    // bundle in the pool with its own of the same nonce: sent again with the chain's count (a dropped bundle was never
    // mined). Any other refusal, or the same one again and again, is the bundle's failure.
    {
      attempts: NONCE_RETRIES,
      refused: (error) => (error instanceof BundleRefused && /nonce/i.test(error.reason)) || error instanceof TransactionDroppedError,
    },
  );
}

/** The chain did not accept the bundle transaction. */
class BundleRefused extends RpcError {
  constructor(
    chainId: number,
    readonly reason: string,
  ) {
    super(RPC.INTERNAL_ERROR, `The bundle transaction was not accepted by chain ${chainId}: ${reason}`);
  }
}

/** Sends of one bundle in all while the chain refuses its (cached) nonce. */
const NONCE_RETRIES = 3;

/** Forget the cached bundler nonce (after a chain restart the chain may be behind). */
export const resetBundlerNonce = (handle: ChainHandle): void => void bundlerNonces.delete(handle);
