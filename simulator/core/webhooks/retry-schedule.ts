// The retry schedule of spec §6: 7 attempts, each retry a fixed delay after the previous
// attempt's *scheduled* time, so the cumulative offsets are exact (0, 1m, 6m, 36m, 2h36m,
// 10h36m, 34h36m) however long each HTTP exchange took.

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  60_000, // 1 minute
  5 * 60_000, // 5 minutes
  30 * 60_000, // 30 minutes
  2 * 3_600_000, // 2 hours
  8 * 3_600_000, // 8 hours
  24 * 3_600_000, // 24 hours
];

export function validateRetryDelays(delays: readonly number[]): void {
  for (const [i, d] of delays.entries()) {
    if (!Number.isFinite(d) || d < 0) throw new RangeError(`retryDelaysMs[${i}] must be a finite number >= 0, got ${d}`);
  }
}

/** Due time of the attempt after `attemptNumber` (1-based), or null when it was the last one. */
export function nextAttemptDueAt(scheduledAt: number, attemptNumber: number, delays: readonly number[]): number | null {
  const delay = delays[attemptNumber - 1];
  return delay === undefined ? null : scheduledAt + delay;
}

/** The attempt that follows a failed one (its number and due time), or null when none does. */
export type RetryScheduler = (scheduledAt: number, attemptNumber: number) => { number: number; dueAt: number } | null;

/** The scheduler of a delay list: attempt n + 1, `delays[n - 1]` after attempt n's scheduled time. */
export function retryScheduler(delays: readonly number[]): RetryScheduler {
  return (scheduledAt, attemptNumber) => {
    const dueAt = nextAttemptDueAt(scheduledAt, attemptNumber, delays);
    return dueAt === null ? null : { number: attemptNumber + 1, dueAt };
  };
}
