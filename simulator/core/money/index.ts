export * from './decimal.ts';
export * from './fees.ts';
export * from './token-amounts.ts';
export * from './gas.ts';
