// The bundler's own admission rules, before any simulation: the fee must reach the chain's gas price, the
// preVerificationGas must cover the calldata, and the limits must fit in a block.
import type { ChainHandle } from '../network/chain-handle.ts';
import { computePreVerificationGas } from './compute-pre-verification-gas.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import { invalidParams } from './rpc-error.ts';

const MAX_TOTAL_GAS = 25_000_000n;

export function checkAcceptable(handle: ChainHandle, op: UserOperationV07): void {
  if (op.maxPriorityFeePerGas < handle.gasPriceWei) {
    throw invalidParams(
      `maxPriorityFeePerGas ${op.maxPriorityFeePerGas} is below chain ${handle.chainId}'s gas price ${handle.gasPriceWei} wei (ask eth_maxPriorityFeePerGas)`,
    );
  }
  const required = computePreVerificationGas(op);
  if (op.preVerificationGas < required)
    throw invalidParams(`preVerificationGas ${op.preVerificationGas} is below the required ${required}`);
  const total = op.verificationGasLimit + op.callGasLimit + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n);
  if (total + op.preVerificationGas > MAX_TOTAL_GAS) throw invalidParams(`the operation's gas limits add up to more than ${MAX_TOTAL_GAS}`);
}
