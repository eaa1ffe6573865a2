import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateTime } from './date-time.ts';

describe('parseDateTime', () => {
  it('accepts RFC 3339 date-times with Z or an offset and fractional seconds', () => {
    expect(parseDateTime('2026-11-21T10:00:00Z')).toBe(Date.parse('2026-11-21T10:00:00Z'));
    expect(parseDateTime('2026-11-21T10:00:00.5Z')).toBe(Date.parse('2026-11-21T10:00:00.500Z'));
    expect(parseDateTime('2026-11-21T10:00:00.123456789Z')).toBe(Date.parse('2026-11-21T10:00:00.123Z'));
    expect(parseDateTime('2026-11-21T12:30:00+02:30')).toBe(Date.parse('2026-11-21T10:00:00Z'));
    expect(parseDateTime('2024-02-29t00:00:00z')).toBe(Date.parse('2024-02-29T00:00:00Z'));
    expect(parseDateTime('0050-03-01T00:00:00Z')).toBe(new Date('0050-03-01T00:00:00Z').getTime());
  });

  it.each([
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-11-21T10:60:00Z',
    '2026-11-21T10:00:60Z',
    '2026-11-21 10:00:00Z',
    '2026-11-21T10:00:00',
    '2026-11-21',
    '2026-11-21T10:00:00+24:00',
    '0100-02-29T00:00:00Z',
    '',
  ])('rejects %j', (value) => expect(parseDateTime(value)).toBeUndefined());

  it('agrees with toISOString for every instant', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        expect(parseDateTime(d.toISOString())).toBe(d.getTime());
      }),
    );
  });
});
