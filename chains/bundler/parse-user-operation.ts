// Reads a v0.7 user operation in its RPC form (ERC-7769: unpacked, hex quantities) and checks every field, so bad
// input gets -32602 with the field named instead of an exception deeper down.
import { isAddress, isHex, type Address, type Hex } from 'viem';
import type { UserOperation } from 'viem/account-abstraction';
import { invalidParams } from './rpc-error.ts';

export type UserOperationV07 = UserOperation<'0.7'>;

const QUANTITIES = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const;
const REQUIRED_QUANTITIES = new Set([
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
]);
const MAX_UINT256 = 2n ** 256n - 1n;

export interface ParseUserOperationOptions {
  /** Estimation accepts operations without gas fields or signature; they are filled with placeholders. */
  forEstimation?: boolean;
}

/** A dummy ECDSA signature that recovers to some address, so validation runs its full path (as bundlers use). */
export const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c';

function quantity(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(value)) {
    throw invalidParams(`userOperation.${field} must be a hex quantity like "0x1a" (got ${JSON.stringify(value)?.slice(0, 80)})`);
  }
  const n = BigInt(value);
  if (n > MAX_UINT256) throw invalidParams(`userOperation.${field} does not fit in uint256`);
  return n;
}

function bytes(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0) {
    throw invalidParams(`userOperation.${field} must be 0x-prefixed hex bytes`);
  }
  return value;
}

function address(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw invalidParams(`userOperation.${field} must be a 20-byte address`);
  return value;
}

export function parseUserOperation(input: unknown, options: ParseUserOperationOptions = {}): UserOperationV07 {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalidParams('params[0] must be a user operation object');
  const raw = input as Record<string, unknown>;
  if ('initCode' in raw || 'paymasterAndData' in raw) {
    throw invalidParams(
      'This is an EntryPoint v0.6 user operation (initCode/paymasterAndData); v0.7 uses factory/factoryData and paymaster/paymasterData',
    );
  }
  const op: Record<string, unknown> = {
    sender: address(raw.sender, 'sender'),
    callData: bytes(raw.callData, 'callData'),
    signature: raw.signature === undefined && options.forEstimation ? STUB_SIGNATURE : bytes(raw.signature, 'signature'),
  };
  for (const field of QUANTITIES) {
    if (raw[field] === undefined || raw[field] === null) {
      if (REQUIRED_QUANTITIES.has(field) && !options.forEstimation && field !== 'nonce')
        throw invalidParams(`userOperation.${field} is required`);
      if (field === 'nonce' && !options.forEstimation) throw invalidParams('userOperation.nonce is required');
      op[field] = 0n;
    } else {
      op[field] = quantity(raw[field], field);
    }
  }
  if (raw.factory !== undefined && raw.factory !== null && raw.factory !== '0x') {
    op.factory = address(raw.factory, 'factory');
    op.factoryData = raw.factoryData === undefined ? '0x' : bytes(raw.factoryData, 'factoryData');
  } else if (raw.factoryData !== undefined && raw.factoryData !== null && raw.factoryData !== '0x') {
    throw invalidParams('userOperation.factoryData given without factory');
  }
  if (raw.paymaster !== undefined && raw.paymaster !== null && raw.paymaster !== '0x') {
    op.paymaster = address(raw.paymaster, 'paymaster');
    op.paymasterData = raw.paymasterData === undefined ? '0x' : bytes(raw.paymasterData, 'paymasterData');
  } else {
    for (const f of ['paymasterData'] as const) {
      if (raw[f] !== undefined && raw[f] !== null && raw[f] !== '0x') throw invalidParams(`userOperation.${f} given without paymaster`);
    }
    op.paymasterVerificationGasLimit = undefined;
    op.paymasterPostOpGasLimit = undefined;
  }
  if ((op.maxPriorityFeePerGas as bigint) > (op.maxFeePerGas as bigint)) {
    throw invalidParams('userOperation.maxPriorityFeePerGas must not exceed maxFeePerGas');
  }
  return op as unknown as UserOperationV07;
}
