// Each named fault bends exactly one rule of spec §6, observable by a merchant-side check.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { WebhookFaults } from './faults.ts';
import { createWebhookService, type WebhookService } from './service.ts';
import { capturingFetch, jsonRequest, testApp, verifyIndependently, type CapturedCall } from '../test-support/webhooks.ts';

const START = Date.parse('2026-11-21T10:00:00.250Z');
const PAYMENT = '3f0c1a2e-5b7d-4c11-9e2f-0a1b2c3d4e5f';
const HOUR = 3_600_000;

const open: Array<{ service: WebhookService; clock: VirtualClock }> = [];
afterEach(async () => {
  for (const { service, clock } of open.splice(0)) {
    await service.close();
    clock.dispose();
  }
});

async function run(faults: Partial<WebhookFaults>, status = 500) {
  const clock = new VirtualClock({ wallNow: () => START });
  const { fetch, calls } = capturingFetch(() => status);
  const service = createWebhookService({ clock, fetch, faults });
  open.push({ service, clock });
  const res = await testApp(service).request('/v1/webhooks', jsonRequest('m1', 'POST', { url: 'http://hook.example/' }));
  const { secret } = (await res.json()) as { secret: string };
  service.emit('m1', { type: 'payment.failed', paymentId: PAYMENT, externalId: null });
  await clock.settle();
  const verify = (call: CapturedCall) =>
    verifyIndependently(call.headers['X-Service-Signature'], call.body, secret, Math.floor(clock.now() / 1000));
  /** As the receiver saw it at the time of that attempt. */
  const verifyOnArrival = (call: CapturedCall) =>
    verifyIndependently(call.headers['X-Service-Signature'], call.body, secret, Number(call.headers['X-Service-Timestamp']));
  return { clock, service, calls, secret, verify, verifyOnArrival };
}

const offsets = (calls: CapturedCall[]) => {
  const ts = calls.map((c) => Number(c.headers['X-Service-Timestamp']));
  return ts.map((t) => t - ts[0]!);
};

describe('faults', () => {
  it('off by default: the independent check passes', async () => {
    const { calls, verify, service } = await run({}, 200);
    expect(verify(calls[0]!).ok).toBe(true);
    expect(service.faults).toEqual({
      signatureWithoutTimestamp: false, signedBodyOnly: false, timestampInMs: false, timestampSkewSeconds: 0, wrongSignature: false,
      retryShiftMs: 0, missingAttempts: [], bodyChangesOnRetry: false,
    });
  });

  it('signatureWithoutTimestamp fails verification step 1', async () => {
    const { calls, verify } = await run({ signatureWithoutTimestamp: true });
    expect(calls[0]!.headers['X-Service-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'format' });
  });

  it('timestampInMs sends milliseconds and fails the tolerance step', async () => {
    const { calls, verify } = await run({ timestampInMs: true });
    expect(calls[0]!.headers['X-Service-Timestamp']).toBe(String(START));
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'tolerance' });
  });

  it('timestampSkewSeconds -301 makes signatures stale', async () => {
    const { calls, verify } = await run({ timestampSkewSeconds: -301 });
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'tolerance' });
  });

  it('signedBodyOnly (HMAC without "<t>.") fails the HMAC step', async () => {
    const { calls, verify } = await run({ signedBodyOnly: true });
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'signature' });
  });

  it('wrongSignature fails the HMAC step', async () => {
    const { calls, verify } = await run({ wrongSignature: true });
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'signature' });
  });

  it('retryShiftMs moves every retry off the documented schedule', async () => {
    const { clock, calls } = await run({ retryShiftMs: 1_000 });
    await clock.advance(36 * HOUR);
    expect(offsets(calls)).toEqual([0, 61, 362, 2163, 9364, 38165, 124566]);
  });

  it('missingAttempts drops attempts without recording them, keeping the schedule', async () => {
    const { clock, calls, service } = await run({ missingAttempts: [3, 7] });
    await clock.advance(36 * HOUR);
    expect(offsets(calls)).toEqual([0, 60, 2160, 9360, 38160]);
    const [delivery] = service.deliveries('m1');
    expect(delivery!.attempts.map((a) => a.number)).toEqual([1, 2, 4, 5, 6]);
    expect(delivery!.status).toBe('failed');
  });

  it('bodyChangesOnRetry re-stamps the body per attempt', async () => {
    const { clock, calls, verifyOnArrival } = await run({ bodyChangesOnRetry: true });
    await clock.advance(6 * 60_000);
    expect(new Set(calls.map((c) => c.body)).size).toBe(3);
    expect(calls.every((c) => verifyOnArrival(c).ok)).toBe(true); // still signed correctly, just not identical
  });

  it('can be switched at run time; the next attempt obeys', async () => {
    const { clock, calls, verify, service } = await run({});
    expect(verify(calls[0]!).ok).toBe(true);
    service.faults.wrongSignature = true;
    await clock.advance(60_000);
    expect(verify(calls[1]!)).toMatchObject({ ok: false, step: 'signature' });
  });
});
