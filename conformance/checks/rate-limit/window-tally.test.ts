import { describe, expect, it } from 'vitest';
import { tallyWindows } from './window-tally.ts';

const ok = (remaining: number) => ({ status: 200, remaining: String(remaining) });

describe('tallyWindows', () => {
  it('counts a window that resets while the requests are sent as two windows', () => {
    const answers = [ok(3), ok(2), ok(1), ok(9), ok(8)];
    expect(tallyWindows(answers, 0)).toEqual({ resets: 1, mostInOneWindow: 3 });
  });

  it('does not take answers of requests in flight together, out of order, for a reset', () => {
    const answers = [ok(9), ok(7), ok(8), ok(6), ok(5)];
    expect(tallyWindows(answers, 2)).toEqual({ resets: 0, mostInOneWindow: 5 });
  });

  it('counts every success in one window when the remaining count never climbs (a limit never enforced)', () => {
    const answers = [ok(2), ok(1), ok(0), ok(0), ok(0)];
    expect(tallyWindows(answers, 16).mostInOneWindow).toBe(5);
  });

  it('counts every success as one window when there is no remaining count at all', () => {
    expect(
      tallyWindows(
        [
          { status: 200, remaining: undefined },
          { status: 200, remaining: undefined },
        ],
        16,
      ),
    ).toEqual({
      resets: 0,
      mostInOneWindow: 2,
    });
  });
});
