// @stablepay/client: a typed client of the payment service API (create-client.ts), and the contract's types.
export * from './create-client.ts';
