import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from './verify-signature.ts';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef';
const BODY = '{"event":"test","timestamp":"2026-11-21T10:00:00.000Z"}';
const NOW = 1_795_000_000_000;
const T = Math.floor(NOW / 1000);
const GOOD = `t=${T},v1=${createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex')}`;

describe('verifyWebhookSignature takes the header as HTTP libraries hand it over', () => {
  it('a single value', () => {
    expect(verifyWebhookSignature(BODY, GOOD, SECRET, { now: NOW })).toEqual({ ok: true, timestamp: T });
  });

  it('an array (a header sent twice, as Node gives it): the first value counts', () => {
    expect(verifyWebhookSignature(BODY, [GOOD, 't=1,v1=00'], SECRET, { now: NOW })).toEqual({ ok: true, timestamp: T });
    expect(verifyWebhookSignature(BODY, ['t=1,v1=00', GOOD], SECRET, { now: NOW })).toMatchObject({ ok: false, step: 'tolerance' });
  });

  it('absent (undefined, null, an empty array or an empty string) is a format failure, never an exception', () => {
    for (const header of [undefined, null, [], '']) {
      expect(verifyWebhookSignature(BODY, header, SECRET, { now: NOW })).toMatchObject({ ok: false, step: 'format' });
    }
  });

  it('a raw body given as bytes verifies like the same string', () => {
    expect(verifyWebhookSignature(Buffer.from(BODY), GOOD, SECRET, { now: NOW })).toEqual({ ok: true, timestamp: T });
    expect(verifyWebhookSignature(Buffer.from(`${BODY} `), GOOD, SECRET, { now: NOW })).toMatchObject({ ok: false, step: 'signature' });
  });
});
