// What counts as the customer's transaction (PAY-HOSTED-ONE-TRANSACTION): transactions, user operations and transfer
// authorizations do; sign-in messages and permits do not.
import { describe, expect, it } from 'vitest';
import { personalSignKind, TRANSACTION_KINDS, typedDataKind } from './signature-kind.ts';

describe('signature kinds', () => {
  it('personal_sign: a 32-byte hash is a user operation, anything else a message', () => {
    expect(personalSignKind(`0x${'ab'.repeat(32)}`)).toBe('user-operation');
    expect(personalSignKind('0x5369676e20696e')).toBe('message');
    expect(personalSignKind('Sign in to Example Shop')).toBe('message');
  });

  it('typed data: by its primary type', () => {
    expect(typedDataKind('Permit')).toBe('permit');
    expect(typedDataKind('PermitSingle')).toBe('permit');
    expect(typedDataKind('TransferWithAuthorization')).toBe('transfer-authorization');
    expect(typedDataKind('PermitTransferFrom')).toBe('transfer-authorization');
    expect(typedDataKind('PackedUserOperation')).toBe('user-operation');
    expect(typedDataKind('Order')).toBe('typed-data');
  });

  it("only transactions, user operations and transfer authorizations are the customer's transaction", () => {
    expect([...TRANSACTION_KINDS].sort()).toEqual(['transaction', 'transfer-authorization', 'user-operation']);
  });
});
