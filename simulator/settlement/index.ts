export { refusalError } from './settlement-driver.ts';
export type { CustomerChoice, SettlementContext, SettlementDriver, SettlementDriverFactory } from './settlement-driver.ts';
export { createInstantDriver, INSTANT_GAS_PRICE_WEI, INSTANT_GAS_USED } from './instant-driver.ts';
