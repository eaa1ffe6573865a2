// Which pending change of this process the catch-up takes as already done by another process (sql-durable-state.ts)
// rather than as a conflict that undoes everything pending: a delete met by the other process's tombstone, only.
import { describe, expect, it } from 'vitest';
import { deletedByBoth, jsonText } from './sql-changes.ts';

const session = { paymentId: 'p1', expiresAt: 86_400_000 };
const put = { kind: 'checkout-session', id: 'h1', value: session, deleted: false };
const deletion = { kind: 'checkout-session', id: 'h1', value: undefined, deleted: true };

describe('deletedByBoth', () => {
  it('a delete met by a tombstone is done; met by a row it is a conflict', () => {
    expect(deletedByBoth(deletion, null)).toBe(true);
    expect(deletedByBoth(deletion, jsonText(session))).toBe(false);
  });

  it('a put is a conflict even when the row holds the same value (what came with it depends on who made it)', () => {
    expect(deletedByBoth(put, jsonText(session))).toBe(false);
    expect(deletedByBoth(put, null)).toBe(false);
  });
});
