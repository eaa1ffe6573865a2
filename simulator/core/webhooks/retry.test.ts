// The retry schedule on the virtual clock, success/failure rules and the real-time timeout,
// against a real receiver. No test sleeps beyond the 200 ms timeout case.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { FetchLike } from './http-post.ts';
import { createWebhookService, DEFAULT_TIMEOUT_MS, type WebhookService } from './service.ts';
import { jsonRequest, refusedUrl, startReceiver, testApp, type Receiver } from '../../test-support/webhooks.ts';

const START = Date.parse('2026-11-21T10:00:00.999Z');
const PAYMENT = '3f0c1a2e-5b7d-4c11-9e2f-0a1b2c3d4e5f';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

async function setup(options: { reply?: Receiver['reply']; timeoutMs?: number; url?: string; fetch?: FetchLike } = {}) {
  const t0 = performance.now();
  // Real wall time runs underneath, as in the running simulator.
  const clock = new VirtualClock({ wallNow: () => START + Math.floor(performance.now() - t0) });
  const service: WebhookService = createWebhookService({
    clock,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const hook = await startReceiver(() => clock.now(), options.reply);
  cleanups.push(
    () => hook.close(),
    () => service.close(),
    () => clock.dispose(),
  );
  const res = await testApp(service).request('/v1/webhooks', jsonRequest('m1', 'POST', { url: options.url ?? hook.url }));
  expect(res.status).toBe(201);
  const delivery = () => service.deliveries('m1')[0]!;
  /** Emits one payment event and waits for its first attempt to finish. */
  const emit = async () => {
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT, externalId: 'order-1' });
    await service.idle();
  };
  /** Moves the clock, then waits for the attempts it started (the advance itself does not). */
  const advance = async (ms: number) => {
    await clock.advance(ms);
    await service.idle();
  };
  return { clock, service, hook, delivery, emit, advance };
}

/** The attempts' virtual instants (the simulator's header; X-Service-Timestamp is wall time). */
const timestamps = (hook: Receiver) => hook.requests.map((r) => Number(r.headers['x-simulator-attempt-timestamp']));

describe('retry schedule', () => {
  it('makes exactly 7 attempts at +0, 1m, 6m, 36m, 2h36m, 10h36m, 34h36m, then fails for good', async () => {
    const { clock, service, hook, delivery, emit, advance } = await setup({ reply: () => ({ status: 500, body: 'nope' }) });
    await emit();
    expect(hook.requests).toHaveLength(1);
    const emittedAt = Date.parse(delivery().createdAt);
    expect(delivery().nextAttemptAt).toBe(new Date(emittedAt + MINUTE).toISOString());

    // Just before attempt 2 is due nothing more has arrived (wall time runs, hence setTime).
    const secondDue = Date.parse(delivery().nextAttemptAt!);
    await clock.setTime(secondDue - 1);
    await service.idle();
    expect(hook.requests).toHaveLength(1);
    await advance(Math.max(0, secondDue - clock.now()));
    expect(hook.requests).toHaveLength(2);

    await advance(35 * HOUR);
    expect(hook.requests).toHaveLength(7);
    const first = timestamps(hook)[0]!;
    expect(first).toBe(Math.floor(emittedAt / 1000));
    expect(timestamps(hook).map((t) => t - first)).toEqual([0, 60, 360, 2160, 9360, 38160, 124560]);
    // The body is fixed at emit; only the timestamp header is re-stamped.
    expect(new Set(hook.requests.map((r) => r.rawBody)).size).toBe(1);
    // Every attempt names the one delivery (X-Service-Delivery-Id), the id of its record.
    expect(hook.requests.map((r) => r.headers['x-service-delivery-id'])).toEqual(Array(7).fill(delivery().id));

    const d = delivery();
    expect(d.status).toBe('failed');
    expect(d.nextAttemptAt).toBeNull();
    expect(d.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(d.attempts.every((a) => a.statusCode === 500 && a.error === 'HTTP 500')).toBe(true);
    expect(d.attempts.map((a) => Date.parse(a.attemptedAt) - emittedAt)).toEqual([0, 1, 6, 36, 156, 636, 2076].map((m) => m * MINUTE));
    expect(d.attempts.map((a) => Math.floor(Date.parse(a.attemptedAt) / 1000))).toEqual(timestamps(hook));

    await advance(48 * HOUR);
    expect(hook.requests).toHaveLength(7);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('stops retrying once an attempt succeeds (3rd here)', async () => {
    const { clock, hook, delivery, emit, advance } = await setup({ reply: (_req, i) => ({ status: i < 2 ? 502 : 204 }) });
    await emit();
    await advance(35 * HOUR);
    await advance(48 * HOUR);
    expect(hook.requests).toHaveLength(3);
    const first = timestamps(hook)[0]!;
    expect(timestamps(hook).map((t) => t - first)).toEqual([0, 60, 360]);
    expect(delivery()).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
    expect(delivery().attempts.map((a) => [a.number, a.statusCode, a.error])).toEqual([
      [1, 502, 'HTTP 502'],
      [2, 502, 'HTTP 502'],
      [3, 204, null],
    ]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('counts a 3xx as a failure and does not follow it', async () => {
    const elsewhere = await startReceiver(() => 0);
    cleanups.push(() => elsewhere.close());
    const { delivery, emit } = await setup({ reply: () => ({ status: 302, headers: { location: elsewhere.url } }) });
    await emit();
    expect(delivery().attempts[0]).toMatchObject({ statusCode: 302, error: 'HTTP 302' });
    expect(delivery().status).toBe('pending');
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('counts a refused connection as a failure with no status code', async () => {
    const url = await refusedUrl();
    const { delivery, service } = await setup({ url });
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT });
    await service.idle();
    expect(delivery().attempts).toEqual([
      {
        number: 1,
        attemptedAt: expect.any(String),
        statusCode: null,
        durationMs: expect.any(Number),
        error: expect.stringMatching(/ECONNREFUSED/),
      },
    ]);
    expect(delivery().status).toBe('pending');
  });
});

describe('response time limit', () => {
  it('counts a response slower than the limit as a failure (200 ms limit here)', async () => {
    const { delivery, emit } = await setup({ timeoutMs: 200, reply: () => ({ status: 200, delayMs: 1_000 }) });
    await emit();
    const [attempt] = delivery().attempts;
    expect(attempt).toMatchObject({ number: 1, statusCode: null, error: 'timeout after 200 ms' });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(190);
    expect(attempt!.durationMs).toBeLessThan(1_000);
    expect(delivery()).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
  });

  it('defaults to 10000 ms: still waiting at 9999 ms, failed at 10000 ms', async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let aborted = false;
    const hangingFetch = ((_url: unknown, init?: { signal?: AbortSignal }) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => {
          aborted = true;
          reject(new DOMException('This operation was aborted', 'AbortError'));
        });
      })) as unknown as FetchLike;
    const clock = new VirtualClock({ wallNow: () => START });
    const service = createWebhookService({ clock, fetch: hangingFetch });
    cleanups.push(
      () => service.close(),
      () => clock.dispose(),
    );
    await testApp(service).request('/v1/webhooks', jsonRequest('m1', 'POST', { url: 'http://hook.example/' }));
    service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(aborted).toBe(false);
    expect(service.deliveries('m1')[0]!.attempts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted).toBe(true);
    await service.idle();
    expect(service.deliveries('m1')[0]!.attempts[0]).toMatchObject({ statusCode: null, error: 'timeout after 10000 ms' });
  });
});

describe('close()', () => {
  it('cancels pending retries and abandons in-flight requests without recording them', async () => {
    let hang = false;
    const { clock, hook, service, delivery, emit } = await setup({
      reply: () => (hang ? { status: 200, delayMs: 30_000 } : { status: 500 }),
    });
    await emit();
    expect(clock.pendingTimers()).toBe(1);
    hang = true;
    service.emit('m1', { type: 'payment.completed', paymentId: PAYMENT });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(2));
    const started = performance.now();
    await service.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(clock.pendingTimers()).toBe(0);
    expect(service.deliveries('m1').find((d) => d.event === 'payment.completed')!.attempts).toEqual([]);
    expect(delivery()).toBeDefined();
    await clock.advance(35 * HOUR);
    expect(hook.requests).toHaveLength(2);
  });
});
