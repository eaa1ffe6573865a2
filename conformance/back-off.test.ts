import { describe, expect, it, vi } from 'vitest';
import { backOff } from './back-off.ts';

describe('backOff', () => {
  it('pauses short first, then longer, up to the maximum', async () => {
    vi.useFakeTimers();
    try {
      const pause = backOff({ firstMs: 10, maxMs: 40, factor: 2 });
      const pauses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const before = Date.now();
        const waited = pause();
        await vi.runAllTimersAsync();
        await waited;
        pauses.push(Date.now() - before);
      }
      expect(pauses).toEqual([10, 20, 40, 40, 40]);
    } finally {
      vi.useRealTimers();
    }
  });
});
