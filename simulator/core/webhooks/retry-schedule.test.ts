import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, nextAttemptDueAt, validateRetryDelays } from './retry-schedule.ts';

describe('retry schedule', () => {
  it('is the spec table: 7 attempts, cumulative 0, 1m, 6m, 36m, 2h36m, 10h36m, 34h36m', () => {
    const due: number[] = [0];
    let n = 1;
    for (
      let next = nextAttemptDueAt(0, n, DEFAULT_RETRY_DELAYS_MS);
      next !== null;
      next = nextAttemptDueAt(next, ++n, DEFAULT_RETRY_DELAYS_MS)
    ) {
      due.push(next);
    }
    expect(due.map((ms) => ms / 60_000)).toEqual([0, 1, 6, 36, 156, 636, 2076]);
  });

  it('refuses negative or non-finite delays', () => {
    expect(() => validateRetryDelays([1, -1])).toThrow(RangeError);
    expect(() => validateRetryDelays([Number.NaN])).toThrow(RangeError);
    expect(() => validateRetryDelays([0, 5])).not.toThrow();
  });
});
