import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, parseSignatureHeader, sign, verifySignature } from './webhooks/signature.ts';

const SECRET = `whsec_${'1f'.repeat(32)}`;
const BODY = '{"event":"payment.cancelled","timestamp":"2026-11-21T10:00:00.000Z","data":{"paymentId":"p","externalId":null}}';

function headers(t: string, v1: string, timestampHeader = t) {
  return { 'x-service-timestamp': timestampHeader, 'x-service-signature': `t=${t},v1=${v1}` };
}

describe('webhook signature verification (spec §6)', () => {
  const t = '1795000000';
  const good = sign(SECRET, t, BODY);

  it('accepts a correct signature within the tolerance', () => {
    expect(verifySignature({ headers: headers(t, good), rawBody: BODY, secret: SECRET, nowSeconds: 1795000000 + 299 })).toEqual({
      ok: true,
      timestamp: 1795000000,
    });
  });

  it('matches an independent HMAC-SHA256 of "<t>.<raw body>"', () => {
    // Vector computed with Python's hmac module, not with node:crypto.
    expect(good).toBe('29a3e5daab6817131a04ac1117169fb290d93193abe79bc94ba4be83e54fd0c2');
  });

  it('rejects stale and future timestamps beyond 300 s', () => {
    expect(verifySignature({ headers: headers(t, good), rawBody: BODY, secret: SECRET, nowSeconds: 1795000000 + 301 })).toMatchObject({
      ok: false,
      reason: 'stale',
    });
    expect(verifySignature({ headers: headers(t, good), rawBody: BODY, secret: SECRET, nowSeconds: 1795000000 - 301 })).toMatchObject({
      ok: false,
      reason: 'stale',
    });
  });

  it('rejects a malformed header, a missing part and a timestamp header that differs from t', () => {
    const now = 1795000000;
    expect(verifySignature({ headers: {}, rawBody: BODY, secret: SECRET, nowSeconds: now })).toMatchObject({ ok: false, reason: 'format' });
    expect(
      verifySignature({
        headers: { 'x-service-timestamp': t, 'x-service-signature': `v1=${good}` },
        rawBody: BODY,
        secret: SECRET,
        nowSeconds: now,
      }),
    ).toMatchObject({ ok: false, reason: 'format' });
    expect(verifySignature({ headers: headers(t, good.toUpperCase()), rawBody: BODY, secret: SECRET, nowSeconds: now })).toMatchObject({
      ok: false,
      reason: 'format',
    });
    expect(verifySignature({ headers: headers(t, good, '1795000001'), rawBody: BODY, secret: SECRET, nowSeconds: now })).toMatchObject({
      ok: false,
      reason: 'timestamp-header',
    });
  });

  it('rejects any change to the body, the timestamp or the secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.nat(BODY.length), (insert, at) => {
        const tampered = BODY.slice(0, at) + insert + BODY.slice(at);
        fc.pre(tampered !== BODY);
        return !verifySignature({ headers: headers(t, good), rawBody: tampered, secret: SECRET, nowSeconds: 1795000000 }).ok;
      }),
    );
    expect(verifySignature({ headers: headers(t, good), rawBody: BODY, secret: `${SECRET}x`, nowSeconds: 1795000000 })).toMatchObject({
      reason: 'mismatch',
    });
    const other = sign(SECRET, '1795000001', BODY);
    expect(verifySignature({ headers: headers(t, other), rawBody: BODY, secret: SECRET, nowSeconds: 1795000000 })).toMatchObject({
      reason: 'mismatch',
    });
  });

  it('parses header parts in any order and compares in constant time with length mismatch false', () => {
    expect(parseSignatureHeader(`v1=${good}, t=${t}`)).toEqual({ t, v1: good });
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual(good, good)).toBe(true);
  });
});
