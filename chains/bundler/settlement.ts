// What a mined bundle means for its user operation: success, gas, the token charged, and — on failure — a reason
// ready for the payment's `error` object.
import { decodeEventLog, formatUnits, type Address, type Hex, type Log, type TransactionReceipt } from 'viem';
import { entryPoint07Abi } from 'viem/account-abstraction';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { loadOwnArtifact } from '../contracts/load-artifact.ts';
import { describeRevertData } from './decode-entry-point-error.ts';

export interface UserOperationSettlement {
  chainId: number;
  userOpHash: Hex;
  sender: Address;
  nonce: bigint;
  txHash: Hex;
  blockHash: Hex;
  blockNumber: bigint;
  /** Block timestamp in ms (virtual time when the clock is synced): use it as `paidAt`. */
  blockTimestampMs: number;
  success: boolean;
  /** Wei, from the EntryPoint's UserOperationEvent. */
  actualGasCost: bigint;
  actualGasUsed: bigint;
  /** The token the customer paid gas in (from paymasterData), if a known token. */
  token?: TokenSymbol;
  /** actualGasCost converted at the configured native price, 6-decimal string rounded up (the payment's gasActual). */
  gasActualToken?: string;
  /** Token units the paymaster actually collected (0 when the operation failed: nothing is charged then). */
  gasChargedUnits: bigint;
  /** Why the operation failed (account call revert or paymaster postOp revert). */
  revertReason?: string;
  /** Ready-made `error` object for a FAILED payment. */
  failure?: { code: 'TRANSACTION_REVERTED'; source: 'chain'; message: string };
  /** Every log of the bundle transaction (token Transfers included), for callers that account for them. */
  logs: readonly Log[];
}

const abi = [...entryPoint07Abi, ...loadOwnArtifact('StablecoinGasPaymaster').abi];

export interface ReadSettlementParameters {
  chainId: number;
  userOpHash: Hex;
  receipt: TransactionReceipt;
  blockTimestampMs: number;
  /** native price (micro-USD per native token), for gasActualToken. */
  nativeUsdMicros: bigint;
  token?: TokenSymbol;
}

export function readSettlement(params: ReadSettlementParameters): UserOperationSettlement | undefined {
  const { receipt } = params;
  let event: { sender: Address; nonce: bigint; success: boolean; actualGasCost: bigint; actualGasUsed: bigint } | undefined;
  let revertReason: string | undefined;
  let gasChargedUnits = 0n;
  for (const log of receipt.logs as Log[]) {
    let decoded;
    try {
      decoded = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
    } catch {
      continue;
    }
    const args = decoded.args as Record<string, unknown>;
    if (decoded.eventName === 'UserOperationEvent' && args.userOpHash === params.userOpHash) {
      event = args as unknown as typeof event;
    } else if (decoded.eventName === 'UserOperationRevertReason' && args.userOpHash === params.userOpHash) {
      revertReason = describeRevertData(args.revertReason as Hex);
    } else if (decoded.eventName === 'PostOpRevertReason' && args.userOpHash === params.userOpHash) {
      revertReason = `gas payment failed: ${describeRevertData(args.revertReason as Hex)}`;
    } else if (decoded.eventName === 'GasCharged') {
      gasChargedUnits = args.tokenAmount as bigint;
    }
  }
  if (!event) return undefined;
  if (!event.success && !revertReason) revertReason = 'no revert reason (the call ran out of gas or hit an invalid opcode)';
  const micros = (event.actualGasCost * params.nativeUsdMicros + 10n ** 18n - 1n) / 10n ** 18n;
  return {
    chainId: params.chainId,
    userOpHash: params.userOpHash,
    sender: event.sender,
    nonce: event.nonce,
    txHash: receipt.transactionHash,
    blockHash: receipt.blockHash,
    blockNumber: receipt.blockNumber,
    blockTimestampMs: params.blockTimestampMs,
    success: event.success,
    actualGasCost: event.actualGasCost,
    actualGasUsed: event.actualGasUsed,
    ...(params.token
      ? {
          token: params.token,
          gasActualToken: formatUnits(micros, 6).includes('.') ? padSix(formatUnits(micros, 6)) : `${formatUnits(micros, 6)}.000000`,
        }
      : {}),
    gasChargedUnits: event.success ? gasChargedUnits : 0n,
    logs: receipt.logs,
    ...(event.success
      ? {}
      : {
          revertReason,
          failure: {
            code: 'TRANSACTION_REVERTED' as const,
            source: 'chain' as const,
            message: `User operation reverted on chain ${params.chainId}: ${revertReason}`,
          },
        }),
  };
}

function padSix(value: string): string {
  const [whole, fraction = ''] = value.split('.');
  return `${whole}.${fraction.padEnd(6, '0')}`;
}
