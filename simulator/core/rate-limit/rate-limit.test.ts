import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test-support/harness.ts';
import { FixedWindowLimiter } from './fixed-window.ts';

let h: Harness;
afterEach(async () => h?.sim.close());

describe('FixedWindowLimiter', () => {
  it('counts per key in aligned windows and reports reset and retry-after', () => {
    const limiter = new FixedWindowLimiter({ limit: 2, windowSeconds: 60 });
    const t = 1_800_000_010_000; // 10 s into a window
    expect(limiter.hit('a', t)).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: 1_800_000_060, retryAfter: 50 });
    expect(limiter.hit('a', t).remaining).toBe(0);
    expect(limiter.hit('a', t + 49_500)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
    expect(limiter.hit('b', t).allowed).toBe(true);
    expect(limiter.hit('a', t + 50_000)).toMatchObject({ allowed: true, remaining: 1, resetAt: 1_800_000_120 });
  });

  it('allows() says what the next hit would decide, and counts nothing', () => {
    const limiter = new FixedWindowLimiter({ limit: 2, windowSeconds: 60 });
    const t = 1_800_000_010_000;
    expect(limiter.allows('a', t)).toBe(true);
    expect(limiter.allows('a', t)).toBe(true);
    expect(limiter.hit('a', t).remaining).toBe(1);
    expect(limiter.allows('a', t)).toBe(true);
    expect(limiter.hit('a', t).allowed).toBe(true);
    expect(limiter.allows('a', t)).toBe(false);
    expect(limiter.hit('a', t).allowed).toBe(false);
    expect(limiter.allows('a', t + 50_000)).toBe(true); // the next window
  });

  it('refuses nonsense settings', () => {
    expect(() => new FixedWindowLimiter({ limit: 0, windowSeconds: 60 })).toThrow(RangeError);
    expect(() => new FixedWindowLimiter({ limit: 1, windowSeconds: 0.5 })).toThrow(RangeError);
  });
});

describe('rate limiting over HTTP', () => {
  it('puts the headers on every /v1 response: 2xx, 400, 401, 404, unknown route, webhook routes', async () => {
    h = createHarness();
    const responses = [
      await h.createPayment(),
      await h.createPayment({ amount: 'x' }),
      await h.request('GET', '/v1/payments/none'),
      await h.request('GET', '/v1/nothing-here'),
      await h.request('GET', '/v1/webhooks'),
      await h.request('GET', '/v1/payments', { key: null }),
    ];
    expect(responses.map((r) => r.status)).toEqual([201, 400, 404, 404, 404, 401]);
    responses.forEach((r, i) => {
      expect(r.headers.get('x-ratelimit-limit')).toBe('6000');
      expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
      // The first five share the key's window; the unauthenticated one has its own (per IP).
      expect(r.headers.get('x-ratelimit-remaining')).toBe(i < 5 ? String(5999 - i) : '5999');
    });
  });

  it('answers 429 with Retry-After beyond the limit and recovers in the next window', async () => {
    h = createHarness({ rateLimit: { limit: 3, windowSeconds: 10 } });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await h.request('GET', '/v1/payments')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await h.request('GET', '/v1/payments');
    expect(limited.body).toEqual({ statusCode: 429, message: 'Rate limit exceeded; retry in 10 s', error: 'Too Many Requests' });
    expect(limited.headers.get('retry-after')).toBe('10');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-21T10:00:10.000Z') / 1000));
    await h.sim.clock.advance(10_000);
    expect((await h.request('GET', '/v1/payments')).status).toBe(200);
  });

  it('counts per key: another key of the same merchant has its own window', async () => {
    h = createHarness({ rateLimit: { limit: 2, windowSeconds: 60 } });
    const second = h.sim.keys.create(h.sim.defaultMerchant.id, {}, h.sim.clock.now()).key;
    await h.request('GET', '/v1/payments');
    await h.request('GET', '/v1/payments');
    expect((await h.request('GET', '/v1/payments')).status).toBe(429);
    expect((await h.request('GET', '/v1/payments', { key: second })).status).toBe(200);
  });

  it('counts unauthenticated requests per client IP', async () => {
    h = createHarness({ rateLimit: { limit: 2, windowSeconds: 60 } });
    const anon = (ip: string) => h.request('GET', '/v1/payments', { key: null, ip });
    expect([(await anon('10.0.0.1')).status, (await anon('10.0.0.1')).status, (await anon('10.0.0.1')).status]).toEqual([401, 401, 429]);
    expect((await anon('10.0.0.2')).status).toBe(401);
    expect((await h.request('GET', '/v1/payments', { ip: '10.0.0.1' })).status).toBe(200);
  });

  it('is reconfigurable through the control API, and the control API itself is not limited', async () => {
    h = createHarness();
    const set = await h.request('PUT', '/control/v1/rate-limit', { body: { limit: 1, windowSeconds: 5 } });
    expect(set.body).toEqual({ limit: 1, windowSeconds: 5 });
    expect((await h.request('GET', '/v1/payments')).status).toBe(200);
    expect((await h.request('GET', '/v1/payments')).status).toBe(429);
    for (let i = 0; i < 3; i += 1) expect((await h.request('GET', '/control/v1/clock')).status).toBe(200);
    const bad = await h.request('PUT', '/control/v1/rate-limit', { body: { limit: 0, windowSeconds: 'x' } });
    expect(bad.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['limit'], ['windowSeconds']]);
  });
});
