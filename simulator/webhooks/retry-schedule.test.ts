import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptInstant, DEFAULT_RETRY_DELAYS_MS, nextAttemptDueAt, ON_TIME_SLACK_MS, validateRetryDelays } from './retry-schedule.ts';

describe('retry schedule', () => {
  it('is the spec table: 7 attempts, cumulative 0, 1m, 6m, 36m, 2h36m, 10h36m, 34h36m', () => {
    const due: number[] = [0];
    let n = 1;
    for (let next = nextAttemptDueAt(0, n, DEFAULT_RETRY_DELAYS_MS); next !== null; next = nextAttemptDueAt(next, ++n, DEFAULT_RETRY_DELAYS_MS)) {
      due.push(next);
    }
    expect(due.map((ms) => ms / 60_000)).toEqual([0, 1, 6, 36, 156, 636, 2076]);
  });

  it('stamps an on-time attempt with its due instant and a late one with the actual time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 42 }), fc.integer({ min: 0, max: 10 * 60_000 }), (due, late) => {
        const instant = attemptInstant(due, due + late);
        expect(instant).toBe(late <= ON_TIME_SLACK_MS ? due : due + late);
      }),
    );
  });

  it('refuses negative or non-finite delays', () => {
    expect(() => validateRetryDelays([1, -1])).toThrow(RangeError);
    expect(() => validateRetryDelays([Number.NaN])).toThrow(RangeError);
    expect(() => validateRetryDelays([0, 5])).not.toThrow();
  });
});
