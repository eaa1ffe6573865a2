import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './server.ts';
import { startServer } from './server.ts';

let server: RunningServer;
const KEY = 'pk_servertest0000000000000000000000000000000000000000';
const agent = new Agent({ connections: 64 });

beforeAll(async () => {
  server = await startServer({
    port: 0,
    defaultApiKey: KEY,
    rateLimit: { limit: 100_000, windowSeconds: 60 },
    logger: { info() {}, error() {} },
  });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${server.url}${path}`, {
    method: 'POST',
    dispatcher: agent,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

describe('over a real HTTP server', () => {
  it('defaults the pay URL to the server itself and serves the API', async () => {
    expect(server.payUrl).toBe(server.url);
    expect(server.controlUrl).toBe(`${server.url}/control/v1`);
    const res = await post('/v1/payments', { amount: '100', currency: 'USD' });
    expect(res.status).toBe(201);
    expect(res.body.paymentUrl).toBe(`${server.url}/p/${res.body.id}`);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('N concurrent creates with one externalId over sockets: one 201, N-1 409', async () => {
    const n = 40;
    const results = await Promise.all(
      Array.from({ length: n }, () => post('/v1/payments', { amount: '10', currency: 'USD', externalId: 'socket-race' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(n - 1);
  });

  it('uses the socket address for IP whitelists', async () => {
    const key = await post('/v1/auth/api-keys', { ipWhitelist: ['203.0.113.0/24'] });
    const denied = await post('/v1/payments', { amount: '10', currency: 'USD' }, { authorization: `Bearer ${key.body.key}` });
    expect(denied.status).toBe(401);
    const local = await post('/v1/auth/api-keys', { ipWhitelist: ['127.0.0.1', '::1'] });
    expect((await post('/v1/payments', { amount: '10', currency: 'USD' }, { authorization: `Bearer ${local.body.key}` })).status).toBe(201);
  });
});

describe('Node request timers under a clock moved from outside', () => {
  it('are off when libfaketime moves the process clock (a jump would make a request in flight look hours old), default otherwise', async () => {
    const { requestTimersFor } = await import('./server.ts');
    expect(requestTimersFor({ FAKETIME_TIMESTAMP_FILE: '/tmp/x/faketime.rc' })).toEqual({ headersTimeout: 0, requestTimeout: 0 });
    expect(requestTimersFor({ FAKETIME: '+1d' })).toEqual({ headersTimeout: 0, requestTimeout: 0 });
    expect(requestTimersFor({})).toEqual({});
  });
});
