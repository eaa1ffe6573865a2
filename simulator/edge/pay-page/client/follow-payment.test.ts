import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentState } from '../customer-view.ts';
import { FAST_POLL_MS, FIRST_FAST_POLL_MS, followPayment, SLOW_POLL_MS } from './follow-payment.ts';

const stateOf = (status: string) => ({ payment: { status } }) as unknown as PaymentState;

describe('followPayment', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Polls of a payment whose statuses come from `statuses` (the last one repeats), at the fake clock's times. */
  function follow(statuses: string[]) {
    const polledAt: number[] = [];
    const load = async () => {
      polledAt.push(Date.now() - start);
      return stateOf(statuses[Math.min(polledAt.length - 1, statuses.length - 1)]!);
    };
    const start = Date.now();
    const follower = followPayment(
      load,
      () => undefined,
      () => undefined,
    );
    return { polledAt, follower };
  }

  it('after a submit polls at once, then backs off from FIRST_FAST_POLL_MS to FAST_POLL_MS, and stops when final', async () => {
    const { polledAt, follower } = follow(['PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'SUCCESSFUL']);
    follower.hurry();
    await vi.advanceTimersByTimeAsync(10_000);
    const gaps = polledAt.slice(1).map((at, i) => at - polledAt[i]!);
    expect(polledAt[0]).toBe(0);
    expect(gaps).toEqual([FIRST_FAST_POLL_MS, FIRST_FAST_POLL_MS * 2, FAST_POLL_MS, FAST_POLL_MS, FAST_POLL_MS]);
  });

  it('polls slowly while the payment waits, and briskly from the first PROCESSING it sees', async () => {
    const { polledAt, follower } = follow(['ACTIVE', 'PROCESSING', 'PROCESSING', 'SUCCESSFUL']);
    await vi.advanceTimersByTimeAsync(SLOW_POLL_MS * 3);
    follower.stop();
    expect(polledAt).toEqual([
      SLOW_POLL_MS,
      SLOW_POLL_MS * 2,
      SLOW_POLL_MS * 2 + FIRST_FAST_POLL_MS,
      SLOW_POLL_MS * 2 + 3 * FIRST_FAST_POLL_MS,
    ]);
  });
});
