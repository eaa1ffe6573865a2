import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentState } from '../customer-view.ts';
import { BRISK_POLL_MS, BRISK_POLLS, FAST_POLL_MS, followPayment, SLOW_POLL_MS } from './follow-payment.ts';

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

  it('after a submit polls at once, then every BRISK_POLL_MS BRISK_POLLS times, then every FAST_POLL_MS, and stops when final', async () => {
    const { polledAt, follower } = follow([...Array<string>(BRISK_POLLS + 3).fill('PROCESSING'), 'SUCCESSFUL']);
    follower.hurry();
    await vi.advanceTimersByTimeAsync(20_000);
    const gaps = polledAt.slice(1).map((at, i) => at - polledAt[i]!);
    expect(polledAt[0]).toBe(0);
    expect(gaps).toEqual([...Array<number>(BRISK_POLLS).fill(BRISK_POLL_MS), FAST_POLL_MS, FAST_POLL_MS, FAST_POLL_MS]);
  });

  it('polls slowly while the payment waits, and briskly from the first PROCESSING it sees', async () => {
    const { polledAt, follower } = follow(['ACTIVE', 'PROCESSING', 'PROCESSING', 'SUCCESSFUL']);
    await vi.advanceTimersByTimeAsync(SLOW_POLL_MS * 3);
    follower.stop();
    expect(polledAt).toEqual([SLOW_POLL_MS, SLOW_POLL_MS * 2, SLOW_POLL_MS * 2 + BRISK_POLL_MS, SLOW_POLL_MS * 2 + 2 * BRISK_POLL_MS]);
  });
});
