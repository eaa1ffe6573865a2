// How many requests one rate-limit window let through, read from the answers' X-RateLimit-Remaining in the order they
// were sent: a remaining count that climbs back up is a new window. A machine too slow to spend a whole window before
// it resets never sees a 429 from a correct limit; what it can still prove is that no window let more than the limit
// through.

/** Windows seen and the most successful answers any one of them gave. */
export interface WindowTally {
  resets: number;
  mostInOneWindow: number;
}

/**
 * `answers` in the order sent, each its status and X-RateLimit-Remaining; `slack` how far the count may appear to climb
 * without a reset (requests in flight together are answered in any order).
 */
export function tallyWindows(answers: { status: number; remaining: string | undefined }[], slack: number): WindowTally {
  let resets = 0;
  let inWindow = 0;
  let most = 0;
  let previous: number | undefined;
  for (const { status, remaining } of answers) {
    const left = Number(remaining);
    if (previous !== undefined && Number.isFinite(left) && left > previous + slack) {
      resets += 1;
      inWindow = 0;
    }
    if (Number.isFinite(left)) previous = left;
    if (status >= 200 && status < 300) most = Math.max(most, ++inWindow);
  }
  return { resets, mostInOneWindow: most };
}
