export * from './currencies.ts';
export * from './chains.ts';
export * from './exchange-rates.ts';
