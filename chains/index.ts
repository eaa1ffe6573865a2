// The chain layer (@stablepay/chains), used by the simulator and by the conformance suite: five local Anvil chains with USDC/USDT at their canonical addresses, ERC-4337
// (EntryPoint v0.7, SimpleAccountFactory, a token gas paymaster), the bundler behind the web3 proxy, and the
// customer-side helpers that build one-transaction settlements.
export { startChainNetwork, type StartChainNetworkOptions } from './network/start-chain-network.ts';
export { DEFAULT_SEED, type ChainNetwork } from './network/build-chain-network.ts';
export { attachChainNetwork, ChainNotReachableError, type AttachChainNetworkOptions } from './network/attach-chain-network.ts';
export type { ChainHandle, ChainProcess, RawRpcResponse, JsonRpcErrorObject } from './network/chain-handle.ts';
export type {
  ChainEvents,
  ChainEventMap,
  ChainExitedEvent,
  ChainRestartedEvent,
  ChainFailedEvent,
  ChainLogger,
} from './clients/chain-events.ts';
export type { ChainStatus } from './anvil/supervise-chain.ts';
export { tokenVariant, type TokenVariant } from './contracts/token-variants.ts';
export { tokenPerNative, DEFAULT_GAS_PRICES_WEI } from './clients/gas-price.ts';
export { ENTRY_POINT_ADDRESS, SIMPLE_ACCOUNT_FACTORY_ADDRESS, feeCollector, gasTreasury } from './roles.ts';
export { syncChainTime } from './network/sync-time.ts';
export { fundAccount, getTokenBalance, type FundAccountReturnType } from './network/fund-account.ts';
export type {
  BundlerHooks,
  FailureSource,
  UserOperationAdmission,
  UserOperationAdmissionEvent,
  UserOperationFailure,
  UserOperationSubmittedEvent,
  UserOperationRejectedEvent,
} from './bundler/bundler-events.ts';
export {
  createBundler,
  userOperationHash,
  type Bundler,
  type BundlerMode,
  type BundlerOptions,
  type StoredUserOperation,
  type UserOperationOutcome,
} from './bundler/create-bundler.ts';
export { RPC, RpcError, invalidParams } from './bundler/rpc-error.ts';
export { getUserOperationByHashView, getUserOperationReceiptView } from './bundler/user-operation-views.ts';
export type { UserOperationSettlement } from './bundler/settlement.ts';
export { parseUserOperation, type UserOperationV07 } from './bundler/parse-user-operation.ts';
export type { BundlerFailureCode } from './bundler/decode-entry-point-error.ts';
export {
  createCustomerAccount,
  deriveOwnerKey,
  smartAccountOf,
  type CustomerAccount,
  type CreateCustomerAccountParameters,
  type SmartAccountReference,
} from './customer/create-customer-account.ts';
export {
  buildSettlementUserOperation,
  type BuildSettlementUserOperationParameters,
  type BuildSettlementUserOperationReturnType,
  type SettlementTransfer,
} from './customer/build-settlement-user-operation.ts';
export {
  submitUserOperation,
  submitAndSettle,
  type SubmitAndSettleReturnType,
  type SettlingProxyEndpoint,
} from './customer/submit-user-operation.ts';
export { ProxyCallError, type ProxyEndpoint } from './customer/call-proxy.ts';
export * from './errors.ts';
