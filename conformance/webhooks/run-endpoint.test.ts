import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HttpClient } from '../http/client.ts';
import { WebhookReceiver } from './receiver.ts';
import { RunEndpoint } from './run-endpoint.ts';

let receiver: WebhookReceiver;
let run: RunEndpoint;

beforeEach(async () => {
  receiver = await WebhookReceiver.start({ host: '127.0.0.1', port: 0 });
  run = new RunEndpoint(receiver);
});
afterEach(async () => receiver.close());

const created = (checkId: string, id: string) =>
  run.observe({} as HttpClient, { method: 'POST', path: '/v1/payments', checkId }, { status: 201, json: { id } });

const deliver = async (body: unknown, signal?: AbortSignal): Promise<number> =>
  (await fetch(run.url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal })).status;

const cancelled = (paymentId: string) => ({ event: 'payment.cancelled', timestamp: '2026-01-01T00:00:00.000Z', data: { paymentId } });

describe('RunEndpoint', () => {
  it("routes each delivery to the check that created its payment and answers with that check's behaviour", async () => {
    const failing = run.listen('webhooks.retry-schedule', { status: 500 });
    const plain = run.listen('webhooks.signature', { status: 200 });
    created('webhooks.retry-schedule', 'p-1');
    created('webhooks.signature', 'p-2');
    expect(await deliver(cancelled('p-1'))).toBe(500);
    expect(await deliver(cancelled('p-2'))).toBe(200);
    expect(failing.deliveries.map((d) => (d.json as { data: { paymentId: string } }).data.paymentId)).toEqual(['p-1']);
    expect(plain.deliveries.map((d) => (d.json as { data: { paymentId: string } }).data.paymentId)).toEqual(['p-2']);
  });

  it("keeps what names no listening check's payment for the run, answered 200", async () => {
    run.listen('webhooks.signature', { status: 500 });
    created('lifecycle.cancel', 'p-other');
    expect(await deliver(cancelled('p-other'))).toBe(200);
    expect(await deliver({ event: 'test', timestamp: '2026-01-01T00:00:00.000Z' })).toBe(200);
    expect(receiver.unrouted).toHaveLength(2);
    expect(receiver.all()).toHaveLength(2);
  });

  it('moves a delivery that arrived before its create was answered to the creating check', async () => {
    const endpoint = run.listen('webhooks.no-created-event', { status: 200 });
    expect(await deliver({ event: 'payment.created', timestamp: '2026-01-01T00:00:00.000Z', data: { paymentId: 'p-early' } })).toBe(200);
    expect(endpoint.deliveries).toHaveLength(0);
    created('webhooks.no-created-event', 'p-early');
    expect(endpoint.deliveries.map((d) => (d.json as { event: string }).event)).toEqual(['payment.created']);
    expect(receiver.unrouted).toHaveLength(0);
  });

  it("answers 200 to a released check's later deliveries (its retries stop) and keeps them for the run", async () => {
    const endpoint = run.listen('webhooks.retry-schedule', { status: 500 });
    created('webhooks.retry-schedule', 'p-3');
    expect(await deliver(cancelled('p-3'))).toBe(500);
    run.release('webhooks.retry-schedule');
    expect(await deliver(cancelled('p-3'))).toBe(200);
    expect(endpoint.deliveries).toHaveLength(1);
    expect(receiver.all()).toHaveLength(2);
  });

  it('points the endpoint once for the run, and adopts a secret rotated by a check alone', async () => {
    let pointed = 0;
    const point = async (url: string) => {
      pointed += 1;
      expect(url).toBe(run.url);
      return { secret: 'whsec_first', restore: async () => undefined };
    };
    const [a, b] = await Promise.all([run.pointOnce(point), run.pointOnce(point)]);
    expect(pointed).toBe(1);
    expect(a).toEqual({ ok: true, secret: 'whsec_first' });
    expect(b).toEqual(a);
    run.adoptSecret('whsec_second');
    expect(await run.secret()).toEqual({ ok: true, secret: 'whsec_second' });
  });

  it('tells when a held answer was given, whether or not the sender still listened', async () => {
    const slow = run.listen('webhooks.slow-receiver-timeout', { status: 200, delayMs: 300 });
    created('webhooks.slow-receiver-timeout', 'p-held');
    created('webhooks.slow-receiver-timeout', 'p-gone');
    const sent = Date.now();
    const status = deliver(cancelled('p-held'));
    const [held] = await slow.waitFor((d) => d.length > 0, 1000);
    let given = 0;
    const answered = slow.answered(held!.id).then(() => (given = Date.now()));
    expect(await status).toBe(200);
    await answered;
    expect(given - sent).toBeGreaterThanOrEqual(250);
    // A sender that hangs up first (an implementation's time-out): the answer is still given at its time, not before.
    const aborted = new AbortController();
    const gone = deliver(cancelled('p-gone'), aborted.signal).catch(() => 0);
    const [, second] = await slow.waitFor((d) => d.length > 1, 1000);
    const hungUp = Date.now();
    aborted.abort();
    await gone;
    await slow.answered(second!.id);
    expect(Date.now() - hungUp).toBeGreaterThanOrEqual(200);
    // Not held: at once.
    slow.behaviour = { status: 200 };
    await deliver(cancelled('p-held'));
    await slow.answered(slow.deliveries[2]!.id);
  });

  it('tells when the sender stopped waiting for a held answer: at its hang-up, or at the answer when it waits', async () => {
    const slow = run.listen('webhooks.slow-receiver-timeout', { status: 200, delayMs: 1_500 });
    created('webhooks.slow-receiver-timeout', 'p-gone');
    created('webhooks.slow-receiver-timeout', 'p-waits');
    const aborted = new AbortController();
    const gone = deliver(cancelled('p-gone'), aborted.signal).catch(() => 0);
    const [first] = await slow.waitFor((d) => d.length > 0, 1000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const hungUp = Date.now();
    aborted.abort();
    await gone;
    await slow.givenOrHungUp(first!.id);
    // Well before the answer's time (1.5 s after receipt), and noted on the delivery.
    expect(Date.now() - hungUp).toBeLessThan(1_000);
    expect(first!.senderHungUpAfterMs).toBeGreaterThanOrEqual(150);
    expect(first!.senderHungUpAfterMs).toBeLessThan(1_500);
    // A sender that waits: only at the answer.
    slow.behaviour = { status: 200, delayMs: 300 };
    const sent = Date.now();
    const status = deliver(cancelled('p-waits'));
    const [, second] = await slow.waitFor((d) => d.length > 1, 1000);
    await slow.givenOrHungUp(second!.id);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(250);
    expect(await status).toBe(200);
    expect(second!.senderHungUpAfterMs).toBeUndefined();
  });

  it("does not count another check's held answer against a wait", async () => {
    const slow = run.listen('webhooks.slow-receiver-timeout', { status: 200, delayMs: 400 });
    const waiting = run.listen('webhooks.signature', { status: 200 });
    created('webhooks.slow-receiver-timeout', 'p-slow');
    created('webhooks.signature', 'p-late');
    // Not awaited: the receiver holds its answer (and closes before it when the test ends).
    void deliver(cancelled('p-slow')).catch(() => 0);
    await slow.waitFor((d) => d.length > 0, 1000);
    const started = Date.now();
    // The wait of 100 ms is extended while the slow answer is held (about 400 ms), so a delivery at 300 ms still counts.
    setTimeout(() => void deliver(cancelled('p-late')).catch(() => 0), 300);
    const seen = await waiting.waitFor((d) => d.length > 0, 100);
    expect(seen).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
