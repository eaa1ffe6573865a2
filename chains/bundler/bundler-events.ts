// Hooks through which the simulator follows user operations: admitted (may refuse) -> submitted (PROCESSING) ->
// settled (SUCCESSFUL or FAILED on chain) or rejected (FAILED by the bundler). Hooks are awaited in order; an
// exception in an informational hook is logged and does not change what the bundler answers. Only
// `admitUserOperation` decides: what it throws is the caller's JSON-RPC error.
import type { Address, Hex } from 'viem';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import type { UserOperationV07 } from './parse-user-operation.ts';
import type { UserOperationSettlement } from './settlement.ts';

export type FailureSource = 'chain' | 'bundler' | 'service';

/** Ready-made `error` object for a FAILED payment. */
export interface UserOperationFailure {
  code: string;
  source: FailureSource;
  message: string;
}

export interface UserOperationAdmissionEvent {
  chainId: number;
  userOpHash: Hex;
  userOperation: UserOperationV07;
  /** 'check' runs before simulation, 'enter' right before the operation is accepted (after simulation). */
  phase: 'check' | 'enter';
  /** Whatever the caller of the proxy passed along (e.g. the checkout token of the request). */
  context: unknown;
}

export interface UserOperationAdmission {
  /** Keep the accepted operation in the mempool until bundle() or drop() (mempool mode only). */
  hold?: boolean;
}

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
  /**
   * 'admission': eth_sendUserOperation refused it (the caller got the error; nothing was accepted).
   * 'mempool': an accepted operation was dropped before it reached a block (re-simulation failed, or drop()).
   */
  stage: 'admission' | 'mempool';
  /** JSON-RPC error code (ERC-7769) of the refusal. */
  rpcCode: number;
  message: string;
  failure: UserOperationFailure;
}

export interface BundlerHooks {
  /** Throw (an RpcError) to refuse the operation: the caller gets that error and no other hook runs for it. */
  admitUserOperation?(event: UserOperationAdmissionEvent): UserOperationAdmission | void | Promise<UserOperationAdmission | void>;
  onUserOperationSubmitted?(event: UserOperationSubmittedEvent): void | Promise<void>;
  onUserOperationSettled?(event: UserOperationSettlement): void | Promise<void>;
  onUserOperationRejected?(event: UserOperationRejectedEvent): void | Promise<void>;
  /** Where hook exceptions are reported (default: console.error). */
  onHookError?(hook: string, error: unknown): void;
}
