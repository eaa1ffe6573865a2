// What a page asked the wallet to sign or send, so "the customer signs exactly one transaction" (PAY-HOSTED-ONE-
// TRANSACTION) counts transactions and not every signature: a sign-in message or an EIP-2612 permit is not a
// transaction; an eth_sendTransaction, a user operation's hash or a transfer authorization (EIP-3009) pays.

export type SignatureKind =
  /** eth_sendTransaction: an ordinary transaction (a payment, or an approval before one). */
  | 'transaction'
  /** personal_sign of a 32-byte hash (an ERC-4337 user operation's hash, as SimpleAccount v0.7 signs it) or typed data of a PackedUserOperation. */
  | 'user-operation'
  /** EIP-3009 TransferWithAuthorization / ReceiveWithAuthorization or Permit2's signature transfer: a payment a relayer submits. */
  | 'transfer-authorization'
  /** EIP-2612 Permit or Permit2's allowance permit: an approval, not a payment. */
  | 'permit'
  /** A text message (sign-in). */
  | 'message'
  /** Other typed data. */
  | 'typed-data';

/** Kinds that are the customer's transaction in the sense of the spec's §1 "signs one transaction". */
export const TRANSACTION_KINDS: readonly SignatureKind[] = ['transaction', 'user-operation', 'transfer-authorization'];

export function personalSignKind(message: unknown): SignatureKind {
  return typeof message === 'string' && /^0x[0-9a-fA-F]{64}$/.test(message) ? 'user-operation' : 'message';
}

const TYPED_KINDS: Record<string, SignatureKind> = {
  PackedUserOperation: 'user-operation',
  UserOperation: 'user-operation',
  TransferWithAuthorization: 'transfer-authorization',
  ReceiveWithAuthorization: 'transfer-authorization',
  PermitTransferFrom: 'transfer-authorization',
  PermitBatchTransferFrom: 'transfer-authorization',
  PermitWitnessTransferFrom: 'transfer-authorization',
  Permit: 'permit',
  PermitSingle: 'permit',
  PermitBatch: 'permit',
};

export function typedDataKind(primaryType: unknown): SignatureKind {
  return (typeof primaryType === 'string' && TYPED_KINDS[primaryType]) || 'typed-data';
}
