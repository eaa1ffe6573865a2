export * from './problems.ts';
export * from './date-time.ts';
export * from './address.ts';
export * from './amount.ts';
export * from './email.ts';
