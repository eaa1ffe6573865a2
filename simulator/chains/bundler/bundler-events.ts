// Hooks through which the simulator follows user operations: submitted -> PROCESSING, settled -> SUCCESSFUL or
// FAILED (chain), rejected -> FAILED (bundler). Hooks are awaited in order; an exception in a hook is logged and
// does not change what the bundler answers.
import type { Address, Hex } from 'viem';
import type { TokenSymbol } from '../chain-table.ts';
import type { BundlerFailureCode } from './decode-entry-point-error.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import type { UserOperationSettlement } from './settlement.ts';

export interface UserOperationSubmittedEvent {
  chainId: number;
  userOpHash: Hex;
  sender: Address;
  token?: TokenSymbol;
  userOperation: UserOperationV07;
}

export interface UserOperationRejectedEvent {
  chainId: number;
  userOpHash: Hex;
  sender: Address;
  /** JSON-RPC error code returned to the caller (ERC-7769). */
  rpcCode: number;
  message: string;
  /** Ready-made `error` object for a FAILED payment. */
  failure: { code: BundlerFailureCode; source: 'bundler'; message: string };
}

export interface BundlerHooks {
  onUserOperationSubmitted?(event: UserOperationSubmittedEvent): void | Promise<void>;
  onUserOperationSettled?(event: UserOperationSettlement): void | Promise<void>;
  onUserOperationRejected?(event: UserOperationRejectedEvent): void | Promise<void>;
  /** Where hook exceptions are reported (default: console.error). */
  onHookError?(hook: string, error: unknown): void;
}
