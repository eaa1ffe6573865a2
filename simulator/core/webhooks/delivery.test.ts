// Signed delivery to a real HTTP receiver on 127.0.0.1: payload, headers, signature (verified
// independently), isolation between merchants, disabled endpoints, URL changes, secret rotation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { createWebhookService, type WebhookService } from './service.ts';
import { jsonRequest, startReceiver, testApp, verifyAsMerchant, type Receiver } from '../../test-support/webhooks.ts';

// The wall clock runs for real, starting 1 ms before a second boundary: a service that stamped
// an attempt's virtual instant with "now" instead of its due instant would drift into the next
// second. The signature's timestamp, by contrast, is the wall time at signing.
const START = Date.parse('2026-11-21T10:00:00.999Z');
const PAYMENT = '3f0c1a2e-5b7d-4c11-9e2f-0a1b2c3d4e5f';
const PAYOUT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

let clock: VirtualClock;
let service: WebhookService;
let app: ReturnType<typeof testApp>;
const receivers: Receiver[] = [];

beforeEach(() => {
  const t0 = performance.now();
  clock = new VirtualClock({ wallNow: () => START + Math.floor(performance.now() - t0) });
  service = createWebhookService({ clock });
  app = testApp(service);
});
afterEach(async () => {
  await service.close();
  clock.dispose();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(reply?: Receiver['reply']): Promise<Receiver> {
  const r = await startReceiver(() => clock.now(), reply);
  receivers.push(r);
  return r;
}

async function configure(merchantId: string, url: string, enabled = true): Promise<string> {
  const res = await app.request('/v1/webhooks', jsonRequest(merchantId, 'POST', { url, enabled }));
  expect(res.status).toBe(201);
  return ((await res.json()) as { secret: string }).secret;
}

/** The receiver's own clock: wall time, whatever the virtual clock says (spec §6 step 2). */
const nowSeconds = () => Math.floor(clock.wallTime() / 1000);

describe('a delivery', () => {
  it('POSTs the minimal payload with the documented headers and a valid signature', async () => {
    const hook = await receiver();
    const secret = await configure('m1', hook.url);
    service.emit('m1', { type: 'payment.completed', paymentId: PAYMENT, externalId: 'order-17' });
    const emittedAt = Date.parse(service.deliveries('m1')[0]!.createdAt);
    await service.idle();

    expect(hook.requests).toHaveLength(1);
    const [req] = hook.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hooks');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toMatch(/^stablepay-simulator\/\d+\.\d+\.\d+/);
    expect(JSON.parse(req!.rawBody)).toEqual({
      event: 'payment.completed',
      timestamp: new Date(emittedAt).toISOString(),
      data: { paymentId: PAYMENT, externalId: 'order-17' },
    });
    expect(req!.headers['x-simulator-attempt-timestamp']).toBe(String(Math.floor(emittedAt / 1000)));
    const signedAt = Number(req!.headers['x-service-timestamp']);
    expect(signedAt).toBeGreaterThanOrEqual(Math.floor(emittedAt / 1000));
    expect(signedAt).toBeLessThanOrEqual(nowSeconds());
    const header = req!.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(header.startsWith(`t=${req!.headers['x-service-timestamp']},`)).toBe(true);
    expect(verifyAsMerchant(header, req!.rawBody, secret, nowSeconds())).toEqual({ ok: true, timestamp: signedAt });

    const [delivery] = service.deliveries('m1');
    expect(delivery).toMatchObject({
      event: 'payment.completed',
      paymentId: PAYMENT,
      payoutId: null,
      url: hook.url,
      status: 'succeeded',
      nextAttemptAt: null,
    });
    expect(delivery!.payload).toEqual(JSON.parse(req!.rawBody));
    expect(delivery!.attempts).toEqual([
      { number: 1, attemptedAt: new Date(emittedAt).toISOString(), statusCode: 200, durationMs: expect.any(Number), error: null },
    ]);
  });

  it('sends externalId null when there is none, payoutId for payout events, no data for test', async () => {
    const hook = await receiver();
    await configure('m1', hook.url);
    service.emit('m1', { type: 'payment.expired', paymentId: PAYMENT });
    service.emit('m1', { type: 'payout.completed', payoutId: PAYOUT, externalId: 'po-1' });
    service.emit('m1', { type: 'test' });
    await service.idle();
    const bodies = hook.requests.map((r) => JSON.parse(r.rawBody) as Record<string, unknown>);
    const byEvent = Object.fromEntries(bodies.map((b) => [b.event, b]));
    expect(byEvent['payment.expired']!.data).toEqual({ paymentId: PAYMENT, externalId: null });
    expect(byEvent['payout.completed']!.data).toEqual({ payoutId: PAYOUT, externalId: 'po-1' });
    expect(Object.keys(byEvent.test!)).toEqual(['event', 'timestamp']);
    const payout = service.deliveries('m1').find((d) => d.event === 'payout.completed');
    expect(payout).toMatchObject({ paymentId: null, payoutId: PAYOUT });
  });

  it('refuses an event that cannot make a well-formed payload, recording nothing', async () => {
    const hook = await receiver();
    await configure('m1', hook.url);
    expect(() => service.emit('m1', { type: 'payment.completed' })).toThrow(TypeError);
    expect(() => service.emit('m1', { type: 'payout.failed', paymentId: PAYMENT })).toThrow(TypeError);
    expect(service.deliveries('m1')).toEqual([]);
  });
});

describe('signature verification (spec §6, steps 1-4)', () => {
  it('each step rejects what it should', async () => {
    const hook = await receiver();
    const secret = await configure('m1', hook.url);
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT, externalId: null });
    await service.idle();
    const { rawBody, headers } = hook.requests[0]!;
    const header = headers['x-service-signature'] as string;
    const t = Number(headers['x-service-timestamp']);
    const v1 = header.split('v1=')[1]!;

    // 1. format
    expect(verifyAsMerchant(`v1=${v1}`, rawBody, secret, t)).toMatchObject({ ok: false, step: 'format' });
    expect(verifyAsMerchant(`t=${t}`, rawBody, secret, t)).toMatchObject({ ok: false, step: 'format' });
    // 2. tolerance, against the receiver's clock: 300 s is fine, 301 s is not, either way
    expect(verifyAsMerchant(header, rawBody, secret, t + 300).ok).toBe(true);
    expect(verifyAsMerchant(header, rawBody, secret, t + 301)).toMatchObject({ ok: false, step: 'tolerance' });
    expect(verifyAsMerchant(header, rawBody, secret, t - 301)).toMatchObject({ ok: false, step: 'tolerance' });
    // 3. HMAC over "<t>.<raw body>": any change to body, t or secret breaks it
    expect(verifyAsMerchant(header, rawBody.replace('processing', 'completed'), secret, t)).toMatchObject({ ok: false, step: 'signature' });
    expect(verifyAsMerchant(header.replace(`t=${t}`, `t=${t + 1}`), rawBody, secret, t)).toMatchObject({ ok: false, step: 'signature' });
    expect(verifyAsMerchant(header, rawBody, `${secret}0`, t)).toMatchObject({ ok: false, step: 'signature' });
    // 4. constant-time compare: unequal lengths are a mismatch, not an exception
    expect(verifyAsMerchant(`t=${t},v1=${v1.slice(0, -1)}`, rawBody, secret, t)).toMatchObject({ ok: false, step: 'signature' });
    expect(verifyAsMerchant(header, rawBody, secret, t).ok).toBe(true);
  });

  it("a retry fired by a 35 h clock advance verifies against the receiver's wall clock", async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const secret = await configure('m1', hook.url);
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT });
    await service.idle();
    await clock.advance(35 * 3_600_000);
    await service.idle();
    expect(hook.requests).toHaveLength(7);
    for (const req of hook.requests) {
      const header = req.headers['x-service-signature'] as string;
      expect(verifyAsMerchant(header, req.rawBody, secret, nowSeconds()).ok).toBe(true);
      // A receiver on the virtual clock would refuse them: that clock is 35 h ahead of the signer.
      expect(verifyAsMerchant(header, req.rawBody, secret, Math.floor(clock.now() / 1000))).toMatchObject({ ok: false, step: 'tolerance' });
    }
  });

  it('after rotation, deliveries verify with the new secret and not the old, retries included', async () => {
    let status = 500;
    const hook = await receiver(() => ({ status }));
    const oldSecret = await configure('m1', hook.url);
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT });
    await service.idle();
    expect(
      verifyAsMerchant(hook.requests[0]!.headers['x-service-signature'] as string, hook.requests[0]!.rawBody, oldSecret, nowSeconds()).ok,
    ).toBe(true);

    const rotated = await app.request('/v1/webhooks/regenerate-secret', jsonRequest('m1', 'POST'));
    const newSecret = ((await rotated.json()) as { secret: string }).secret;
    status = 200;
    await clock.advance(60_000); // the pending retry goes out after the rotation
    service.emit('m1', { type: 'payment.completed', paymentId: PAYMENT });
    await service.idle();

    expect(hook.requests).toHaveLength(3);
    for (const req of hook.requests.slice(1)) {
      const header = req.headers['x-service-signature'] as string;
      expect(verifyAsMerchant(header, req.rawBody, newSecret, nowSeconds()).ok).toBe(true);
      expect(verifyAsMerchant(header, req.rawBody, oldSecret, nowSeconds())).toMatchObject({ ok: false, step: 'signature' });
    }
  });
});

describe('routing of events', () => {
  it('sends each merchant only its own events, signed with its own secret', async () => {
    const hookA = await receiver();
    const hookB = await receiver();
    const secretA = await configure('merchant-a', hookA.url);
    const secretB = await configure('merchant-b', hookB.url);
    const ids = Array.from({ length: 10 }, (_, i) => `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`);
    ids.forEach((paymentId, i) =>
      service.emit(i % 2 === 0 ? 'merchant-a' : 'merchant-b', { type: 'payment.completed', paymentId, externalId: `x${i}` }),
    );
    await service.idle();

    const received = (r: Receiver) =>
      r.requests.map((q) => (JSON.parse(q.rawBody) as { data: { paymentId: string } }).data.paymentId).sort();
    expect(received(hookA)).toEqual(ids.filter((_, i) => i % 2 === 0));
    expect(received(hookB)).toEqual(ids.filter((_, i) => i % 2 === 1));
    for (const [hook, own, other] of [
      [hookA, secretA, secretB],
      [hookB, secretB, secretA],
    ] as const) {
      for (const req of hook.requests) {
        const header = req.headers['x-service-signature'] as string;
        expect(verifyAsMerchant(header, req.rawBody, own, nowSeconds()).ok).toBe(true);
        expect(verifyAsMerchant(header, req.rawBody, other, nowSeconds()).ok).toBe(false);
      }
    }
    expect(
      service
        .deliveries('merchant-a')
        .map((d) => d.paymentId)
        .sort(),
    ).toEqual(received(hookA));
    expect(
      service
        .deliveries('merchant-b')
        .map((d) => d.paymentId)
        .sort(),
    ).toEqual(received(hookB));
  });

  it('records exactly one delivery per event, and none for a merchant without an endpoint', async () => {
    const hook = await receiver();
    await configure('m1', hook.url);
    for (let i = 0; i < 50; i++) service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT, externalId: String(i) });
    service.emit('nobody', { type: 'payment.processing', paymentId: PAYMENT });
    await service.idle();
    expect(service.deliveries('m1')).toHaveLength(50);
    expect(hook.requests).toHaveLength(50);
    expect(new Set(hook.requests.map((r) => r.rawBody)).size).toBe(50);
    expect(service.deliveries('nobody')).toEqual([]);
  });

  it('a disabled endpoint gets nothing, recorded or sent; re-enabled, it gets new events', async () => {
    const hook = await receiver();
    await configure('m1', hook.url, false);
    service.emit('m1', { type: 'payment.cancelled', paymentId: PAYMENT });
    await service.idle();
    expect(hook.requests).toHaveLength(0);
    expect(service.deliveries('m1')).toEqual([]);

    await app.request('/v1/webhooks', jsonRequest('m1', 'PUT', { enabled: true }));
    service.emit('m1', { type: 'payment.cancelled', paymentId: PAYMENT });
    await service.idle();
    expect(hook.requests).toHaveLength(1);
  });

  it('retries follow the endpoint URL: a fixed URL gets the pending retries and later events', async () => {
    const first = await receiver(() => ({ status: 503 }));
    const second = await receiver();
    await configure('m1', first.url);
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT });
    await service.idle();
    await app.request('/v1/webhooks', jsonRequest('m1', 'PUT', { url: second.url }));
    await clock.advance(6 * 60_000); // attempts 2 and 3
    service.emit('m1', { type: 'payment.completed', paymentId: PAYMENT });
    await service.idle();

    expect(first.requests.map((r) => (JSON.parse(r.rawBody) as { event: string }).event)).toEqual(['payment.processing']);
    expect(second.requests.map((r) => (JSON.parse(r.rawBody) as { event: string }).event).sort()).toEqual([
      'payment.completed',
      'payment.processing',
    ]);
    const processing = service.deliveries('m1').find((d) => d.event === 'payment.processing');
    expect(processing).toMatchObject({ url: second.url, status: 'succeeded' });
    expect(processing!.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
  });
});
