// POST /control/v1/reset over a real server: every store emptied, the clock back at wall time, a
// fresh default merchant whose key is the one given, the start-up one, or a new one.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/server.ts';

const START_KEY = 'pk_resettest12345678';
const quiet = { info() {}, error() {} };
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(method: string, path: string, key: string | null, body?: unknown) {
  const res = await fetch(`${server!.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('POST /control/v1/reset', () => {
  it('empties the stores, puts the clock back and keeps the start-up key', async () => {
    server = await startServer({ port: 0, defaultApiKey: START_KEY, logger: quiet });
    const before = server.simulator;
    const merchantBefore = before.defaultMerchant.id;
    expect((await call('POST', '/v1/payments', START_KEY, { amount: '10', currency: 'USD' })).status).toBe(201);
    expect((await call('POST', '/v1/webhooks', START_KEY, { url: 'http://127.0.0.1:9/hook' })).status).toBe(201);
    const other = await call('POST', '/control/v1/merchants', null, { name: 'other' });
    await call('POST', '/control/v1/clock/advance', null, { ms: 36 * 86_400_000 });

    const reset = await call('POST', '/control/v1/reset', null);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ apiKey: START_KEY, merchantId: expect.any(String) });
    expect(reset.body.merchantId).not.toBe(merchantBefore);
    expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(60_000);
    expect(server.simulator).not.toBe(before);
    expect(server.simulator.defaultMerchant.id).toBe(reset.body.merchantId);

    expect((await call('GET', '/v1/payments', START_KEY)).body.data).toEqual([]);
    expect((await call('GET', '/v1/webhooks', START_KEY)).status).toBe(404);
    expect((await call('GET', '/v1/payments', other.body.apiKey.key)).status).toBe(401);
    const clock = await call('GET', '/control/v1/clock', null);
    expect(clock.body.offsetMs).toBe(0);
  });

  it('takes the key to keep from the body, or makes a fresh one, and refuses a malformed one', async () => {
    server = await startServer({ port: 0, logger: quiet });
    const first = server.simulator.defaultApiKey;
    const fresh = await call('POST', '/control/v1/reset', null, {});
    expect(fresh.status).toBe(200);
    expect(fresh.body.apiKey).toMatch(/^pk_/);
    expect(fresh.body.apiKey).not.toBe(first);
    expect((await call('GET', '/v1/payments', first)).status).toBe(401);
    expect((await call('GET', '/v1/payments', fresh.body.apiKey)).status).toBe(200);

    const kept = await call('POST', '/control/v1/reset', null, { apiKey: START_KEY });
    expect(kept.body.apiKey).toBe(START_KEY);
    expect((await call('GET', '/v1/payments', START_KEY)).status).toBe(200);

    const bad = await call('POST', '/control/v1/reset', null, { apiKey: 'sk_nope', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string[] }) => e.path.join('.')).sort()).toEqual(['apiKey', 'extra']);
  });

  it('is absent from a simulator built in process without an owner to rebuild it', async () => {
    const { createSimulator } = await import('../../runtime/app.ts');
    const sim = createSimulator({ logger: quiet });
    expect((await sim.app.request('/control/v1/reset', { method: 'POST' })).status).toBe(404);
    await sim.close();
  });
});
