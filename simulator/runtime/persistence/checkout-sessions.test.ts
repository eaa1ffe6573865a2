// Durable mode keeps checkout sessions: a customer who signed in on the hosted page, or whose user operation was
// prepared, goes on after a restart with the same token. The state dir holds only the token's SHA-256, never the
// token; bigints of the locked quote come back as bigints; an expired session does not come back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../core/clock/virtual-clock.ts';
import {
  CHECKOUT_SESSION_KIND,
  CHECKOUT_TOKEN_TTL_MS,
  CheckoutSessions,
  hashCheckoutToken,
  type StoredCheckoutSession,
} from '../../core/checkout/index.ts';
import type { PaymentQuote } from '../../core/checkout/payment-quote.ts';
import { everyByte } from '../../test-support/every-byte.ts';
import { openStateDir } from './index.ts';

// Each open of a PGlite database takes seconds on a loaded 2-core machine (a test opens it up to three times).
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const OWNER = '0x52908400098527886E0F7030069857D2E4169EE7';
const USER_OP_HASH = `0x${'ab'.repeat(32)}` as const;
const QUOTE: PaymentQuote = {
  paymentId: 'pay-1',
  chainId: 8453,
  token: 'USDC',
  decimals: 6,
  exchangeRate: '1.000000',
  amountToken: '12.340000',
  serviceFeeToken: '0.123400',
  merchantFeeToken: '0.000000',
  sellersToken: [],
  transfers: [
    { role: 'merchant', address: OWNER, to: OWNER, amountToken: '12.216600', amountUnits: 12_216_600n },
    // Beyond 2^53: a number would lose digits, a string keeps them.
    { role: 'service', address: OWNER, to: OWNER, amountToken: '0.123400', amountUnits: 9_007_199_254_740_993n },
  ],
  totalUnits: 9_007_199_266_957_593n,
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stablepay-sessions-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The checkout sessions the database holds, as text. */
async function storedSessions(): Promise<string> {
  const state = await openStateDir(dir);
  try {
    return JSON.stringify([...state.records(CHECKOUT_SESSION_KIND).values()]);
  } finally {
    await state.close();
  }
}

/** An accepted operation as the bundler took it (RPC form); only its shape matters here. */
const SIGNED = { sender: OWNER, nonce: '0x0', callData: '0x', signature: '0x01' };

/** One start on the state dir: the journal, a clock carrying on from `offsetMs`, sessions restored from it. */
async function start(offsetMs = 0) {
  const journal = await openStateDir(dir);
  const clock = new VirtualClock({ offsetMs });
  const sessions = new CheckoutSessions(clock);
  const counts = sessions.restore(journal.records(CHECKOUT_SESSION_KIND).values() as Iterable<StoredCheckoutSession>, journal.persist);
  return { journal, clock, sessions, counts };
}

describe('durable mode: checkout sessions', () => {
  it('a session issued, prepared and accepted before a restart is found by its token after it, with its operation and flag', async () => {
    const first = await start();
    const signedIn = first.sessions.issue({ paymentId: 'pay-1', merchantId: 'm-1', ownerAddress: OWNER });
    const prepared = first.sessions.issue({ paymentId: 'pay-2', merchantId: 'm-1', ownerAddress: OWNER, hold: true });
    first.sessions.prepare(first.sessions.get(prepared.token)!, { chainId: 8453, userOpHash: USER_OP_HASH, quote: QUOTE });
    const accepted = first.sessions.issue({ paymentId: 'pay-3', merchantId: 'm-2', ownerAddress: OWNER });
    first.sessions.prepare(first.sessions.get(accepted.token)!, {
      chainId: 137,
      userOpHash: USER_OP_HASH,
      quote: { ...QUOTE, chainId: 137 },
    });
    first.sessions.accept(first.sessions.get(accepted.token)!, SIGNED);
    await first.clock.advance(3_600_000);
    await first.journal.commit();
    const offsetMs = first.clock.offsetMs;
    await first.journal.close();

    const onDisk = everyByte(dir);
    const stored = await storedSessions();
    for (const { token } of [signedIn, prepared, accepted]) {
      expect(onDisk).not.toContain(token);
      expect(onDisk).not.toContain(token.slice(3));
      expect(stored).toContain(hashCheckoutToken(token));
    }

    const second = await start(offsetMs);
    try {
      expect(second.counts).toMatchObject({ restored: 3, expired: 0 });
      // The one accepted with its signed operation is handed back for the bundler to resume.
      expect(second.counts.accepted.map((a) => [a.paymentId, a.prepared?.signedOperation])).toEqual([['pay-3', SIGNED]]);
      expect(second.sessions.get(signedIn.token)).toMatchObject({
        paymentId: 'pay-1',
        merchantId: 'm-1',
        ownerAddress: OWNER,
        hold: false,
        expiresAt: signedIn.expiresAt,
      });
      expect(second.sessions.get(signedIn.token)?.prepared).toBeUndefined();
      expect(second.sessions.grant(signedIn.token)).toEqual({ merchantId: 'm-1' });
      const again = second.sessions.get(prepared.token);
      expect(again).toMatchObject({ paymentId: 'pay-2', hold: true });
      expect(again?.prepared).toEqual({ chainId: 8453, userOpHash: USER_OP_HASH, quote: QUOTE, accepted: false });
      expect(typeof again?.prepared?.quote.totalUnits).toBe('bigint');
      expect(second.sessions.get(accepted.token)?.prepared).toMatchObject({ chainId: 137, accepted: true, signedOperation: SIGNED });
      // The restored session takes further changes, and they too are kept.
      second.sessions.accept(again!);
      await second.journal.commit();
    } finally {
      await second.journal.close();
    }
    const third = await start(offsetMs);
    try {
      expect(third.sessions.get(prepared.token)?.prepared?.accepted).toBe(true);
      // A token of the right shape that was never issued finds nothing.
      expect(third.sessions.get(`ct_${'0'.repeat(48)}`)).toBeUndefined();
    } finally {
      await third.journal.close();
    }
  });

  it('an expired session is gone after a restart, and its record leaves the state dir', async () => {
    const first = await start();
    const old = first.sessions.issue({ paymentId: 'pay-old', merchantId: 'm-1', ownerAddress: OWNER });
    // Accepted long ago: its session expires too, but its operation is still handed back for the bundler.
    const oldAccepted = first.sessions.issue({ paymentId: 'pay-old-accepted', merchantId: 'm-1', ownerAddress: OWNER });
    first.sessions.prepare(first.sessions.get(oldAccepted.token)!, { chainId: 8453, userOpHash: USER_OP_HASH, quote: QUOTE });
    first.sessions.accept(first.sessions.get(oldAccepted.token)!, SIGNED);
    await first.clock.advance(CHECKOUT_TOKEN_TTL_MS / 2);
    const fresh = first.sessions.issue({ paymentId: 'pay-fresh', merchantId: 'm-1', ownerAddress: OWNER });
    await first.journal.commit();
    const offsetMs = first.clock.offsetMs;
    await first.journal.close();

    // Down long enough for the first to expire and not the second.
    const second = await start(offsetMs + CHECKOUT_TOKEN_TTL_MS / 2 + 60_000);
    try {
      expect(second.counts).toMatchObject({ restored: 1, expired: 2 });
      expect(second.counts.accepted.map((a) => a.paymentId)).toEqual(['pay-old-accepted']);
      expect(second.sessions.get(old.token)).toBeUndefined();
      expect(second.sessions.get(oldAccepted.token)).toBeUndefined();
      expect(second.sessions.get(fresh.token)?.paymentId).toBe('pay-fresh');
      await second.journal.commit();
      expect([...second.journal.records(CHECKOUT_SESSION_KIND).keys()]).toEqual([hashCheckoutToken(fresh.token)]);
      // Expiring while running deletes the record too.
      await second.clock.advance(CHECKOUT_TOKEN_TTL_MS);
      expect(second.sessions.get(fresh.token)).toBeUndefined();
      await second.journal.commit();
      expect(second.journal.records(CHECKOUT_SESSION_KIND).size).toBe(0);
    } finally {
      await second.journal.close();
    }
    const third = await start(offsetMs + 2 * CHECKOUT_TOKEN_TTL_MS);
    try {
      expect(third.counts).toEqual({ restored: 0, expired: 0, accepted: [] });
    } finally {
      await third.journal.close();
    }
  });
});
