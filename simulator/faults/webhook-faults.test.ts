// Each webhook fault bends exactly one rule of spec §6, observable by a merchant-side check. The
// faulty service is built as the composition root builds it: the fault's wrapper around a seam.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock/virtual-clock.ts';
import {
  buildAttemptRequest,
  DEFAULT_RETRY_DELAYS_MS,
  retryScheduler,
  type BuildAttemptRequest,
  type RetryScheduler,
  type WrapSend,
} from '../core/webhooks/index.ts';
import { createWebhookService, type WebhookService } from '../core/webhooks/service.ts';
import { capturingFetch, jsonRequest, testApp, verifyAsMerchant, type CapturedCall } from '../test-support/webhooks.ts';
import {
  bodyRestampedOnRetry,
  missingAttempts,
  retryShift,
  signatureWithoutTimestamp,
  signedBodyOnly,
  successCountedAsFailure,
  timestampInMs,
  timestampSkew,
  wrongKey,
} from './webhook-faults.ts';

type Fault = {
  request?: (base: BuildAttemptRequest) => BuildAttemptRequest;
  schedule?: (base: RetryScheduler) => RetryScheduler;
  send?: (base: WrapSend) => WrapSend;
};

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

async function run(fault: Fault, status = 500) {
  const clock = new VirtualClock({ wallNow: () => START });
  const { fetch, calls } = capturingFetch(() => status);
  const buildRequest = fault.request ? fault.request(buildAttemptRequest) : buildAttemptRequest;
  const nextAttempt = (fault.schedule ?? ((base: RetryScheduler) => base))(retryScheduler(DEFAULT_RETRY_DELAYS_MS));
  const service = createWebhookService({
    clock,
    fetch,
    buildRequest,
    nextAttempt,
    ...(fault.send ? { wrapSend: fault.send((send) => send) } : {}),
  });
  open.push({ service, clock });
  const res = await testApp(service).request('/v1/webhooks', jsonRequest('m1', 'POST', { url: 'http://hook.example/' }));
  const { secret } = (await res.json()) as { secret: string };
  service.emit('m1', { type: 'payment.failed', paymentId: PAYMENT, externalId: null });
  await service.idle();
  const verify = (call: CapturedCall) =>
    verifyAsMerchant(call.headers['X-Service-Signature'], call.body, secret, Math.floor(clock.now() / 1000));
  /** As the receiver saw it at the time of that attempt. */
  const verifyOnArrival = (call: CapturedCall) =>
    verifyAsMerchant(call.headers['X-Service-Signature'], call.body, secret, Number(call.headers['X-Service-Timestamp']));
  return { clock, service, calls, secret, verify, verifyOnArrival };
}

const offsets = (calls: CapturedCall[]) => {
  // The attempts' virtual instants: the signed X-Service-Timestamp is wall time.
  const ts = calls.map((c) => Number(c.headers['X-Simulator-Attempt-Timestamp']));
  return ts.map((t) => t - ts[0]!);
};

describe('faults', () => {
  it('off by default: the independent check passes', async () => {
    const { calls, verify } = await run({}, 200);
    expect(verify(calls[0]!).ok).toBe(true);
  });

  it('signatureWithoutTimestamp fails verification step 1', async () => {
    const { calls, verify } = await run({ request: signatureWithoutTimestamp });
    expect(calls[0]!.headers['X-Service-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'format' });
  });

  it('timestampInMs sends milliseconds and fails the tolerance step', async () => {
    const { calls, verify } = await run({ request: timestampInMs });
    expect(calls[0]!.headers['X-Service-Timestamp']).toBe(String(START));
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'tolerance' });
  });

  it('timestampSkewSeconds -301 makes signatures stale', async () => {
    const { calls, verify } = await run({ request: timestampSkew(-301) });
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'tolerance' });
  });

  it('signedBodyOnly (HMAC without "<t>.") fails the HMAC step', async () => {
    const { calls, verify } = await run({ request: signedBodyOnly });
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'signature' });
  });

  it('wrongSignature fails the HMAC step', async () => {
    const { calls, verify } = await run({ request: wrongKey });
    expect(verify(calls[0]!)).toMatchObject({ ok: false, step: 'signature' });
  });

  it('retryShiftMs moves every retry off the documented schedule', async () => {
    const { clock, calls, service } = await run({ schedule: retryShift(1_000) });
    await clock.advance(36 * HOUR);
    await service.idle();
    expect(offsets(calls)).toEqual([0, 61, 362, 2163, 9364, 38165, 124566]);
  });

  it('missingAttempts drops attempts without recording them, keeping the schedule', async () => {
    const { clock, calls, service } = await run({ schedule: missingAttempts([3, 7]) });
    await clock.advance(36 * HOUR);
    await service.idle();
    expect(offsets(calls)).toEqual([0, 60, 2160, 9360, 38160]);
    const [delivery] = service.deliveries('m1');
    expect(delivery!.attempts.map((a) => a.number)).toEqual([1, 2, 4, 5, 6]);
    expect(delivery!.status).toBe('failed');
  });

  it('bodyChangesOnRetry re-stamps the body per attempt', async () => {
    const { clock, calls, service, verifyOnArrival } = await run({ request: bodyRestampedOnRetry });
    await clock.advance(6 * 60_000);
    await service.idle();
    expect(new Set(calls.map((c) => c.body)).size).toBe(3);
    expect(calls.every((c) => verifyOnArrival(c).ok)).toBe(true); // still signed correctly, just not identical
  });

  it('off by default: a 200 ends the delivery after one attempt', async () => {
    const { clock, calls, service } = await run({}, 200);
    await clock.advance(36 * HOUR);
    await service.idle();
    expect(calls).toHaveLength(1);
    expect(service.deliveries('m1')[0]!.status).toBe('succeeded');
  });

  it('successCountedAsFailure retries a delivery the receiver answered 200, on the documented schedule', async () => {
    const { clock, calls, service } = await run({ send: successCountedAsFailure }, 200);
    await clock.advance(36 * HOUR);
    await service.idle();
    expect(offsets(calls)).toEqual([0, 60, 360, 2160, 9360, 38160, 124560]);
    const [delivery] = service.deliveries('m1');
    expect(delivery!.attempts.every((a) => a.statusCode === 200 && a.error !== null)).toBe(true);
    expect(delivery!.status).toBe('failed');
  });

  it('successCountedAsFailure leaves a failed attempt as it was', async () => {
    const { calls, service } = await run({ send: successCountedAsFailure }, 500);
    expect(calls).toHaveLength(1);
    expect(service.deliveries('m1')[0]!.attempts[0]).toMatchObject({ statusCode: 500, error: 'HTTP 500' });
  });
});
