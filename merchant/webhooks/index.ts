// @stablepay/webhooks: the receiver's side of spec §6 (verify-signature.ts), and the payload's types.
export * from './verify-signature.ts';
