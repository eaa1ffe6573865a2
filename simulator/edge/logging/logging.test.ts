// The request and delivery-attempt logs: one record per request (merchant, never the key), one per
// attempt (outcome and next step), and both formats of `--log-format`.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../runtime/app.ts';
import { batchedLines } from './batched-lines.ts';
import { formatRecord } from './format-record.ts';
import type { LogRecord } from './log-records.ts';

const KEY = 'pk_logtest0123456789';
const quiet = { info() {}, error() {} };

describe('request and delivery logs', () => {
  it('logs each request with method, path, status, ms and merchant, and each attempt with its outcome; no key, no secret', async () => {
    const records: LogRecord[] = [];
    let answer = 500;
    const fetch = (async () => new Response('', { status: answer })) as never;
    const sim = createSimulator({ defaultApiKey: KEY, logger: quiet, log: (r) => records.push(r), webhookOptions: { fetch } });
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const hook = await sim.app.request('/v1/webhooks', {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'http://hooks.example/in?token=abc' }),
    });
    const { secret } = (await hook.json()) as { secret: string };
    const created = await sim.app.request('/v1/payments?x=1', {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: '10', currency: 'USD' }),
    });
    const { id } = (await created.json()) as { id: string };
    await sim.app.request(`/v1/payments/${id}`, { method: 'DELETE', headers });
    await sim.app.request('/v1/payments', { headers: { authorization: 'Bearer pk_unknown000000' } });
    await sim.webhooks.idle();
    answer = 200;
    await sim.clock.advance(60_000);
    await sim.webhooks.idle();

    const requests = records.filter((r) => r.kind === 'request');
    expect(requests.map((r) => [r.method, r.path, r.status, r.merchant])).toEqual([
      ['POST', '/v1/webhooks', 201, sim.defaultMerchant.id],
      ['POST', '/v1/payments', 201, sim.defaultMerchant.id],
      ['DELETE', `/v1/payments/${id}`, 200, sim.defaultMerchant.id],
      ['GET', '/v1/payments', 401, null],
    ]);
    expect(requests.every((r) => Number.isInteger(r.ms) && r.ms >= 0)).toBe(true);
    const attempts = records.filter((r) => r.kind === 'delivery');
    expect(attempts.map((a) => [a.event, a.paymentId, a.attempt, a.statusCode, a.outcome, a.url])).toEqual([
      ['payment.cancelled', id, 1, 500, 'retrying', 'http://hooks.example/in'],
      ['payment.cancelled', id, 2, 200, 'succeeded', 'http://hooks.example/in'],
    ]);
    expect(attempts[0]!.nextAttemptAt).toBe(sim.webhooks.deliveries(sim.defaultMerchant.id)[0]!.attempts[1]!.attemptedAt);
    const everything = records.map((r) => `${formatRecord(r, 'json', new Date())}\n${formatRecord(r, 'pretty', new Date())}`).join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain('token=abc');
    await sim.close();
  });

  it('formats a line for people and a JSON object for tools', () => {
    const now = new Date('2026-11-21T10:00:00.123Z');
    const request: LogRecord = { kind: 'request', method: 'GET', path: '/v1/payments', status: 200, ms: 3, merchant: 'm-1' };
    expect(formatRecord(request, 'pretty', now)).toBe('10:00:00.123 GET    /v1/payments 200 3ms merchant=m-1');
    expect(JSON.parse(formatRecord(request, 'json', now))).toEqual({ time: now.toISOString(), ...request });
    const attempt: LogRecord = {
      kind: 'delivery',
      merchant: 'm-1',
      deliveryId: 'd-1',
      event: 'payment.expired',
      paymentId: 'p-1',
      payoutId: null,
      attempt: 7,
      url: 'http://127.0.0.1:9/x',
      statusCode: null,
      error: 'timeout after 10000 ms',
      ms: 10_000,
      outcome: 'failed',
      nextAttemptAt: null,
    };
    expect(formatRecord(attempt, 'pretty', now)).toBe(
      '10:00:00.123 webhook payment.expired payment=p-1 delivery=d-1 attempt 7 -> http://127.0.0.1:9/x no answer (timeout after 10000 ms) 10000ms merchant=m-1 -> failed, no more attempts',
    );
  });
});

describe('batchedLines', () => {
  it('writes the lines of one turn as one chunk, in order, once the scheduled flush runs', () => {
    const writes: string[] = [];
    const scheduled: (() => void)[] = [];
    const lines = batchedLines(
      (chunk) => writes.push(chunk),
      (flush) => scheduled.push(flush),
    );
    lines.line('a');
    lines.line('b');
    expect(writes).toEqual([]);
    expect(scheduled).toHaveLength(1);
    scheduled[0]?.();
    lines.line('c');
    expect(writes).toEqual(['a\nb\n']);
    expect(scheduled).toHaveLength(2);
  });

  it('flush() writes what is pending at once, and the scheduled flush then writes nothing more', () => {
    const writes: string[] = [];
    const scheduled: (() => void)[] = [];
    const lines = batchedLines(
      (chunk) => writes.push(chunk),
      (flush) => scheduled.push(flush),
    );
    lines.line('a');
    lines.flush();
    scheduled[0]?.();
    expect(writes).toEqual(['a\n']);
  });
});
