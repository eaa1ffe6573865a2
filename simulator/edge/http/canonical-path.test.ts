import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/server.ts';
import { startServer } from '../../runtime/server.ts';
import { isCanonicalPath } from './canonical-path.ts';

const KEY = 'pk_pathtest000000000000000000000000000000000000000000';
let server: RunningServer;
const loggedErrors: unknown[][] = [];

beforeAll(async () => {
  server = await startServer({
    port: 0,
    defaultApiKey: KEY,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    logger: { info() {}, error: (...args: unknown[]) => loggedErrors.push(args) },
  });
});
afterAll(async () => server.close());

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http sends the path exactly as given (no URL parsing), which is what an attacker's client does. */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const DOT_DOT = ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%2E.'];
const DOT = ['.', '%2e', '%2E'];
const SEPARATOR = ['/', '%2f', '%2F', '%5c', '%5C', '\\', '//'];
const PREFIX = ['/v1', '/v1/payments', '/v1/payouts', '/v1/webhooks', '/v1/analytics', '/v1/auth/api-keys', '/v1/payments/pay_1'];
const TARGET = ['control/v1/clock', 'control/v1/merchants', 'control/v1/health', 'control/v1/rate-limit', 'v1/payments', 'p/pay_1'];

/** A prefix under /v1, then dot segments climbing out of it through some separator, then a target. */
const traversal = fc
  .record({
    prefix: fc.constantFrom(...PREFIX),
    climbs: fc.array(fc.constantFrom(...DOT_DOT, ...DOT), { minLength: 1, maxLength: 5 }),
    separator: fc.constantFrom(...SEPARATOR),
    target: fc.constantFrom(...TARGET),
    trailingQuery: fc.boolean(),
  })
  .map(
    ({ prefix, climbs, separator, target, trailingQuery }) =>
      `${prefix}${separator}${climbs.join(separator)}${separator}${target}${trailingQuery ? '?limit=1' : ''}`,
  );

/** Empty segments and encoded slashes inside an otherwise ordinary /v1 path. */
const oddSlashes = fc
  .record({
    before: fc.constantFrom('/v1', '/v1/payments', '/v1/webhooks'),
    odd: fc.constantFrom('//', '/%2f', '%2F', '/%5c', '/./', '/%2e/', '/../'),
    after: fc.constantFrom('', 'payments', 'deliveries', 'x'),
  })
  .map(({ before, odd, after }) => `${before}${odd}${after}`);

const CONTROL_SHAPES = ['"nowMs"', '"merchant"', '"chains"', '"windowSeconds"', '"offsetMs"'];

describe('paths are refused before routing unless canonical', () => {
  it('recognises canonical and non-canonical paths', () => {
    expect(isCanonicalPath('/v1/payments/pay_1')).toBe(true);
    expect(isCanonicalPath('/v1/payments/')).toBe(true);
    expect(isCanonicalPath('/v1/payments/a%20b')).toBe(true);
    for (const odd of [
      '/v1/../control',
      '/v1/%2e%2e/control',
      '/v1//payments',
      '/v1/a%2fb',
      '/v1\\x',
      '/v1/%252e',
      '/v1/.',
      '/v1/%zz',
      'v1',
    ]) {
      expect(isCanonicalPath(odd), odd).toBe(false);
    }
  });

  it('every generated traversal or encoding variant under /v1 is 401 or 404 with rate-limit headers, never a control response', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(traversal, oddSlashes),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.boolean(),
        async (path, method, withKey) => {
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            ...(withKey ? { authorization: `Bearer ${KEY}` } : {}),
          };
          const res = await rawRequest(method, path, headers, method === 'GET' || method === 'DELETE' ? undefined : '{"name":"x"}');
          expect([401, 404], `${method} ${path} -> ${res.status} ${res.body}`).toContain(res.status);
          if (withKey) expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.headers['x-ratelimit-limit'], `${method} ${path}`).toBeDefined();
          expect(JSON.parse(res.body)).toMatchObject({ statusCode: res.status });
          for (const shape of CONTROL_SHAPES) expect(res.body, `${method} ${path}`).not.toContain(shape);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the issue's two reproductions no longer reach the control API, and nothing was created", async () => {
    const before = server.simulator.merchants.size;
    const clock = await rawRequest('GET', '/v1/payouts/%2e%2e/%2e%2e/control/v1/clock');
    expect(clock.status).toBe(401);
    const created = await rawRequest('POST', '/v1/%2e%2e/control/v1/merchants', { 'content-type': 'application/json' }, '{}');
    expect(created.status).toBe(401);
    expect(created.headers['x-ratelimit-remaining']).toBeDefined();
    expect(server.simulator.merchants.size).toBe(before);
  });

  it('outside /v1 a non-canonical path is a plain 404, and canonical paths still route', async () => {
    const page = await rawRequest('GET', '/p/%2e%2e/control/v1/clock');
    expect(page.status).toBe(404);
    expect(page.body).not.toContain('nowMs');
    const control = await rawRequest('GET', '/control/v1/clock');
    expect(control.status).toBe(200);
    const list = await rawRequest('GET', '/v1/payments?limit=1', { authorization: `Bearer ${KEY}` });
    expect(list.status).toBe(200);
  });

  it('any method on a non-canonical path gets a 4xx, never a 500 or a logged stack (TRACE, TRACK and unknown ones too)', async () => {
    loggedErrors.length = 0;
    for (const method of ['TRACE', 'TRACK', 'PROPFIND', 'FOO', 'OPTIONS', 'HEAD', 'PATCH'])
      for (const path of ['/v1/./payments', '/v1//payments', '/v1/%2e%2e/control/v1/clock', '//x', '/p/./x'])
        for (const withKey of [false, true]) {
          const res = await rawRequest(method, path, withKey ? { authorization: `Bearer ${KEY}` } : {});
          expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${method} ${path} -> ${res.body}`).toBeLessThan(500);
        }
    expect(loggedErrors).toEqual([]);
  });
});
