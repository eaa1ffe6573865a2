import { describe, expect, it } from 'vitest';
import { dueWindow, judgeArrival } from './retry-timing.ts';

const S = 1000;

describe('retry timing by arrival', () => {
  it('counts attempt n from attempt 1 (the cumulative column) with a control API', () => {
    const first = { lo: 0, hi: 40 };
    expect(dueWindow(first, { lo: 60 * S, hi: 61 * S }, 3, false)).toEqual({ lo: 360 * S, hi: 360 * S + 40 });
  });

  it('also allows counting from the previous attempt when the clock is moved from outside', () => {
    const first = { lo: 0, hi: 40 };
    expect(dueWindow(first, { lo: 58 * S, hi: 63 * S }, 3, true)).toEqual({ lo: 358 * S, hi: 363 * S });
  });

  it('is early before the window less the tolerance, late after the window and the wake-up plus the tolerance', () => {
    const window = { lo: 60 * S, hi: 60 * S };
    expect(judgeArrival(57.9 * S, window, 60 * S, 2 * S)).toBe('early');
    expect(judgeArrival(58 * S, window, 60 * S, 2 * S)).toBe('on-time');
    expect(judgeArrival(62 * S, window, 60 * S, 2 * S)).toBe('on-time');
    expect(judgeArrival(62.1 * S, window, 60 * S, 2 * S)).toBe('late');
    // Woken late by the suite: the implementation could not send before it saw its due time.
    expect(judgeArrival(66 * S, window, 65 * S, 2 * S)).toBe('on-time');
    // An attempt two minutes late is late whatever header it carries.
    expect(judgeArrival(120 * S, window, 60 * S, 2 * S)).toBe('late');
  });
});
