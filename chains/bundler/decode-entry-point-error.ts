// Turns an EntryPoint revert (FailedOp / FailedOpWithRevert / ...) into an ERC-7769 JSON-RPC error and the
// payment failure code the simulator records (docs/decisions.md: USER_OPERATION_REJECTED, INSUFFICIENT_FUNDS).
import { decodeErrorResult, type Hex } from 'viem';
import { entryPoint07Abi } from 'viem/account-abstraction';
import { RPC, RpcError } from './rpc-error.ts';

export type BundlerFailureCode = 'USER_OPERATION_REJECTED' | 'INSUFFICIENT_FUNDS';

export class UserOperationRejectedError extends RpcError {
  override name = 'UserOperationRejectedError';
  constructor(
    code: number,
    message: string,
    readonly failureCode: BundlerFailureCode,
    data?: unknown,
  ) {
    super(code, message, data);
  }
}

const INSUFFICIENT_TOKEN_MARKERS = [
  'token balance below the maximum gas cost',
  "AA21 didn't pay prefund",
  'AA31 paymaster deposit too low',
];

/** Human text of revert data: Error(string), Panic(code), or the raw selector. */
export function describeRevertData(data: Hex | undefined): string {
  if (!data || data === '0x') return 'no revert reason (the call ran out of gas or hit an invalid opcode)';
  try {
    const decoded = decodeErrorResult({ abi: [...entryPoint07Abi, ...PANIC_ABI], data }) as {
      errorName: string;
      args?: readonly unknown[];
    };
    if (decoded.errorName === 'Error') return String(decoded.args?.[0]);
    if (decoded.errorName === 'PostOpReverted') return describeRevertData(decoded.args?.[0] as Hex);
    if (decoded.errorName === 'Panic') return `panic 0x${BigInt(decoded.args?.[0] as bigint).toString(16)}`;
    return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`;
  } catch {
    return `revert data ${data.slice(0, 74)}${data.length > 74 ? '…' : ''}`;
  }
}

const PANIC_ABI = [
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
  // OpenZeppelin 5 ECDSA (SimpleAccount's signature check) reverts on malformed signatures.
  { type: 'error', name: 'ECDSAInvalidSignature', inputs: [] },
  { type: 'error', name: 'ECDSAInvalidSignatureLength', inputs: [{ name: 'length', type: 'uint256' }] },
  { type: 'error', name: 'ECDSAInvalidSignatureS', inputs: [{ name: 's', type: 'bytes32' }] },
] as const;

/** Map revert data of handleOps / simulateValidation to the error a bundler answers with. */
export function decodeEntryPointError(data: Hex | undefined, fallbackMessage: string): UserOperationRejectedError {
  let reason = fallbackMessage;
  let inner: string | undefined;
  if (data && data !== '0x') {
    try {
      const decoded = decodeErrorResult({ abi: entryPoint07Abi, data });
      if (decoded.errorName === 'FailedOp') reason = String(decoded.args[1]);
      else if (decoded.errorName === 'FailedOpWithRevert') {
        reason = String(decoded.args[1]);
        inner = describeRevertData(decoded.args[2] as Hex);
      } else reason = describeRevertData(data);
    } catch {
      reason = describeRevertData(data);
    }
  }
  const message = inner ? `${reason}: ${inner}` : reason;
  const failureCode: BundlerFailureCode = INSUFFICIENT_TOKEN_MARKERS.some((m) => message.includes(m))
    ? 'INSUFFICIENT_FUNDS'
    : 'USER_OPERATION_REJECTED';
  const code =
    reason.startsWith('AA24') || reason.startsWith('AA34') || message.includes('ECDSAInvalidSignature')
      ? RPC.INVALID_SIGNATURE
      : reason.startsWith('AA22') || reason.startsWith('AA32')
        ? RPC.OUT_OF_TIME_RANGE
        : reason.startsWith('AA3')
          ? RPC.REJECTED_BY_PAYMASTER
          : RPC.REJECTED_BY_ENTRY_POINT;
  return new UserOperationRejectedError(code, message, failureCode, { reason, ...(inner ? { inner } : {}) });
}

/** Revert data carried by a JSON-RPC error of eth_call / eth_estimateGas (Anvil puts it in `data`). */
export function revertDataOf(error: { data?: unknown } | undefined): Hex | undefined {
  const data = error?.data;
  if (typeof data === 'string' && data.startsWith('0x')) return data as Hex;
  if (data && typeof data === 'object' && typeof (data as { data?: unknown }).data === 'string') return (data as { data: Hex }).data;
  return undefined;
}
