import { describe, expect, it } from 'vitest';
import { describeRemaining, formatRemaining, remainingMs } from './countdown.ts';

describe('expiry countdown', () => {
  it('counts from the server virtual now, advanced by local time elapsed since it arrived', () => {
    const sync = { serverNowMs: Date.parse('2030-01-01T10:00:00Z'), receivedAtMs: 5_000 };
    const expiresAt = Date.parse('2030-01-01T11:00:00Z');
    expect(remainingMs(expiresAt, sync, 5_000)).toBe(3_600_000);
    expect(remainingMs(expiresAt, sync, 65_000)).toBe(3_540_000);
    expect(remainingMs(expiresAt, sync, 5_000 + 4_000_000)).toBe(0);
  });

  it('formats minutes, hours and days', () => {
    expect(formatRemaining(0)).toBe('0:00');
    expect(formatRemaining(59_999)).toBe('0:59');
    expect(formatRemaining(3_599_000)).toBe('59:59');
    expect(formatRemaining(3_600_000)).toBe('1:00:00');
    expect(formatRemaining(30 * 86_400_000)).toBe('30 d 00:00:00');
    expect(formatRemaining(86_400_000 + 3_723_000)).toBe('1 d 01:02:03');
  });

  it('describes the time in words for screen readers', () => {
    expect(describeRemaining(0)).toBe('expired');
    expect(describeRemaining(30_000)).toBe('less than a minute left');
    expect(describeRemaining(3_540_000)).toBe('59 minutes left');
    expect(describeRemaining(3_600_000)).toBe('1 hour left');
    expect(describeRemaining(2 * 86_400_000 + 61 * 60_000)).toBe('2 days 1 hour 1 minute left');
  });
});
