export * from './currencies.ts';
export * from '../../../contract/chain-table.ts';
export * from './exchange-rates.ts';
