import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildPayload, serializePayload } from './payload.ts';
import { formatSignatureHeader, generateSecret, signPayload } from './sign.ts';

describe('signing', () => {
  it('matches an HMAC computed independently over "<t>.<raw body>" with the whole secret as key', () => {
    const secret = `whsec_${'ab'.repeat(32)}`;
    const body = '{"event":"test","timestamp":"2026-11-21T10:00:00.000Z"}';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(Buffer.from(`1795168800.${body}`, 'utf8'))
      .digest('hex');
    expect(signPayload(secret, 1795168800, body)).toBe(expected);
    expect(formatSignatureHeader(1795168800, expected)).toBe(`t=1795168800,v1=${expected}`);
  });

  it('generates whsec_ + 64 hex, never twice the same', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateSecret));
    expect(secrets.size).toBe(100);
    for (const s of secrets) expect(s).toMatch(/^whsec_[0-9a-f]{64}$/);
  });
});

describe('payload', () => {
  const ts = '2026-11-21T10:00:00.000Z';
  it('serialises in the documented key order', () => {
    expect(serializePayload(buildPayload({ type: 'payment.completed', paymentId: 'p', externalId: 'e' }, ts))).toBe(
      '{"event":"payment.completed","timestamp":"2026-11-21T10:00:00.000Z","data":{"paymentId":"p","externalId":"e"}}',
    );
    expect(serializePayload(buildPayload({ type: 'payout.expired', payoutId: 'q' }, ts))).toBe(
      '{"event":"payout.expired","timestamp":"2026-11-21T10:00:00.000Z","data":{"payoutId":"q","externalId":null}}',
    );
    expect(serializePayload(buildPayload({ type: 'test', paymentId: 'ignored' }, ts))).toBe(
      '{"event":"test","timestamp":"2026-11-21T10:00:00.000Z"}',
    );
  });

  it('throws on events that cannot be delivered well-formed', () => {
    expect(() => buildPayload({ type: 'payment.created' }, ts)).toThrow(TypeError);
    expect(() => buildPayload({ type: 'payout.created', paymentId: 'p' }, ts)).toThrow(TypeError);
    expect(() => buildPayload({ type: 'payment.paid' as never, paymentId: 'p' }, ts)).toThrow(TypeError);
  });
});
