// preVerificationGas: the part of the bundle transaction no EntryPoint limit covers — the transaction's base cost
// and this operation's calldata — computed the way reference bundlers do (one operation per bundle here).
import { encodeFunctionData, toBytes } from 'viem';
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction';
import { bundlerAccount } from '../roles.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';

const FIXED = 21_000n;
const PER_USER_OP = 18_300n;
const PER_WORD = 4n;
const ZERO_BYTE = 4n;
const NON_ZERO_BYTE = 16n;
const PLACEHOLDER_GAS = 0xff_ffffn;

export function computePreVerificationGas(userOperation: UserOperationV07): bigint {
  // Price unknown gas fields as 3 non-zero bytes, so the estimate is never below the final operation's need.
  // Price the signature as 65 non-zero bytes (an ECDSA signature), so a stub and the final signature cost the same.
  const signatureBytes = Math.max(65, (userOperation.signature.length - 2) / 2);
  const op: UserOperationV07 = {
    ...userOperation,
    signature: `0x${'ff'.repeat(signatureBytes)}`,
    callGasLimit: userOperation.callGasLimit || PLACEHOLDER_GAS,
    verificationGasLimit: userOperation.verificationGasLimit || PLACEHOLDER_GAS,
    preVerificationGas: userOperation.preVerificationGas || PLACEHOLDER_GAS,
    maxFeePerGas: userOperation.maxFeePerGas || PLACEHOLDER_GAS,
    maxPriorityFeePerGas: userOperation.maxPriorityFeePerGas || PLACEHOLDER_GAS,
    ...(userOperation.paymaster
      ? {
          paymasterVerificationGasLimit: userOperation.paymasterVerificationGasLimit || PLACEHOLDER_GAS,
          paymasterPostOpGasLimit: userOperation.paymasterPostOpGasLimit || PLACEHOLDER_GAS,
        }
      : {}),
  };
  const data = toBytes(
    encodeFunctionData({ abi: entryPoint07Abi, functionName: 'handleOps', args: [[toPackedUserOperation(op)], bundlerAccount.address] }),
  );
  let calldataCost = 0n;
  for (const byte of data) calldataCost += byte === 0 ? ZERO_BYTE : NON_ZERO_BYTE;
  const words = BigInt(Math.ceil((data.length - 4) / 32));
  return FIXED + PER_USER_OP + calldataCost + PER_WORD * words;
}
