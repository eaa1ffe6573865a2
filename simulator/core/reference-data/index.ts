export * from './currencies.ts';
export * from '@stablepay/contract/chain-table';
export * from './exchange-rates.ts';
