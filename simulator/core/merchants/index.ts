export { MerchantStore, merchantView } from './merchant-store.ts';
export type { Merchant } from './merchant-store.ts';
