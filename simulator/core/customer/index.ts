export { refusalError } from './settlement-driver.ts';
export type { CustomerChoice, SettlementContext, SettlementDriver, SettlementDriverFactory } from './settlement-driver.ts';
export { createInstantDriver, INSTANT_GAS_PRICE_WEI, INSTANT_GAS_USED } from './instant-driver.ts';
export {
  attachChains,
  bundleDelayProblem,
  DEFAULT_BUNDLE_DELAY_MS,
  type AttachChainsOptions,
  type AttachedChains,
  type BundleDelay,
} from './attach-chains.ts';
export { createChainDriver } from './chain-driver.ts';
export type { ChainHealth } from './chain-health.ts';
export { OperationTracker, type OperationCustody, type TrackedOperation } from './chain-outcomes.ts';
