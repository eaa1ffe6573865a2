// When a change this process has pending is the one another process committed: the catch-up then takes it as its own
// (sql-durable-state.ts) instead of undoing everything pending as a conflict.
import { describe, expect, it } from 'vitest';
import { sameAsRow } from './sql-changes.ts';

const put = (value: unknown) => ({ kind: 'checkout-session', id: 'h1', value, deleted: false });
const deletion = { kind: 'checkout-session', id: 'h1', value: undefined, deleted: true };

describe('sameAsRow', () => {
  it('a delete matches a tombstone, and only a tombstone', () => {
    expect(sameAsRow(deletion, null)).toBe(true);
    expect(sameAsRow(deletion, '{"paymentId":"p1"}')).toBe(false);
    expect(sameAsRow(put({ paymentId: 'p1' }), null)).toBe(false);
  });

  it('a value matches the same JSON value whatever its key order and spacing (jsonb text), and nothing else', () => {
    const value = { paymentId: 'p1', expiresAt: 86_400_000, prepared: { accepted: false, chainId: 8453 } };
    expect(sameAsRow(put(value), '{"expiresAt": 86400000, "paymentId": "p1", "prepared": {"chainId": 8453, "accepted": false}}')).toBe(
      true,
    );
    expect(sameAsRow(put(value), '{"expiresAt": 86400000, "paymentId": "p1", "prepared": {"chainId": 8453, "accepted": true}}')).toBe(
      false,
    );
    expect(sameAsRow(put(value), '{"expiresAt": 86400000, "paymentId": "p1"}')).toBe(false);
    expect(sameAsRow(put({ n: 1 }), '{"n": "1"}')).toBe(false);
  });

  it('a NUL in a string is compared as stored (U+FFFD, which jsonb can hold)', () => {
    expect(sameAsRow(put({ name: 'a\u0000b' }), '{"name": "a\\ufffdb"}')).toBe(true);
  });
});
