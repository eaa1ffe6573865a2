// Every JSON route refuses a body over 1 MB with a 413 and the error body, with Content-Length
// and chunked alike. The refusal comes while the body is still being sent, which proves the cap
// is enforced while streaming: the server never holds an oversized body whole.
import { request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestRecord } from '../logging/index.ts';
import type { RunningServer } from '../../runtime/server.ts';
import { startServer } from '../../runtime/server.ts';

const KEY = 'pk_bodytest000000000000000000000000000000000000000000';
const MB = 1_000_000;
let server: RunningServer;
let paymentId: string;
let payoutId: string;
let clockId: string;
const loggedErrors: string[] = [];
const requests: RequestRecord[] = [];

/** Routes that read a JSON body (`:id` is filled with a real payment or payout id). */
const JSON_ROUTES = [
  'POST /v1/payments',
  'POST /v1/auth/api-keys',
  'POST /v1/webhooks',
  'PUT /v1/webhooks',
  'POST /v1/web3/:chainId',
  'POST /p/:paymentId/sign-in',
  'POST /p/:paymentId/connect',
  'POST /p/:paymentId/prepare',
  'POST /control/v1/clock/advance',
  'POST /control/v1/clock/set',
  'POST /control/v1/clocks/:clockId/advance',
  'POST /control/v1/clocks/:clockId/set',
  'POST /control/v1/merchants',
  'PUT /control/v1/merchant',
  'POST /control/v1/api-keys',
  'POST /control/v1/payments',
  'POST /control/v1/payouts',
  'POST /control/v1/payments/:paymentId/submit',
  'POST /control/v1/payments/:paymentId/confirm',
  'POST /control/v1/payments/:paymentId/fail',
  'POST /control/v1/payments/:paymentId/pay',
  'POST /control/v1/payouts/:payoutId/submit',
  'POST /control/v1/payouts/:payoutId/confirm',
  'POST /control/v1/payouts/:payoutId/fail',
  'POST /control/v1/payouts/:payoutId/cancel',
  'PUT /control/v1/exchange-rates',
  'PUT /control/v1/rate-limit',
  'POST /control/v1/reset',
  'POST /control/v1/listeners',
];
/** Routes that take no body at all. */
const BODYLESS_ROUTES = [
  'DELETE /v1/payments/:id',
  'DELETE /v1/auth/api-keys/:id',
  'POST /v1/webhooks/regenerate-secret',
  'POST /v1/webhooks/test',
  'POST /demo-payment',
  'POST /control/v1/clocks',
  'POST /control/v1/merchant/reset',
  'POST /control/v1/listeners/test',
  'DELETE /control/v1/listeners/:id',
];

const concrete = (path: string): string =>
  path.replace(':chainId', '8453').replace(':paymentId', paymentId).replace(':payoutId', payoutId).replace(':clockId', clockId);

beforeAll(async () => {
  server = await startServer({
    port: 0,
    defaultApiKey: KEY,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    logger: { info() {}, error: (message) => loggedErrors.push(message) },
    log: (record) => (record.kind === 'request' ? requests.push(record) : undefined),
  });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const payment = await fetch(`${server.url}/v1/payments`, { method: 'POST', headers, body: '{"amount":"100","currency":"USD"}' });
  paymentId = ((await payment.json()) as { id: string }).id;
  const payout = await fetch(`${server.url}/control/v1/payouts`, {
    method: 'POST',
    headers,
    body: '{"amount":"10","currency":"USD","recipientAddress":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}',
  });
  payoutId = ((await payout.json()) as { id: string }).id;
  clockId = ((await (await fetch(`${server.url}/control/v1/clocks`, { method: 'POST' })).json()) as { id: string }).id;
});
afterAll(async () => server.close());

interface Reply {
  status: number;
  body: string;
}

/**
 * Sends `total` bytes in 64 KB chunks (declared with Content-Length, or chunked) and ends the body
 * only when `finish` is true; resolves on the answer.
 */
function sendLarge(route: string, total: number, mode: 'content-length' | 'chunked', finish: boolean): Promise<Reply> {
  const [method, path] = route.split(' ') as [string, string];
  const { hostname, port } = new URL(server.url);
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  if (mode === 'content-length') headers['content-length'] = String(total);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req: ClientRequest = request({ host: hostname, port, method, path: concrete(path), headers, agent: false }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: text });
      });
    });
    // Once answered, the server may close the socket on the rest of the body: that is its right.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = (): void => {
      while (sent < total && !answered) {
        const size = Math.min(chunk.length, total - sent);
        sent += size;
        if (!req.write(chunk.subarray(0, size))) {
          req.once('drain', pump);
          return;
        }
      }
      if (sent >= total && finish && !answered) req.end();
    };
    pump();
  });
}

describe('one body pipeline: 1 MB cap on every JSON route', () => {
  it('the route lists cover every route that can take a body', () => {
    const routes = new Set(
      server.simulator.app.routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method)).map((r) => `${r.method} ${r.path}`),
    );
    const classified = [...JSON_ROUTES, ...BODYLESS_ROUTES].map((r) => r.replace(':paymentId', ':id').replace(':payoutId', ':id'));
    expect([...routes].sort()).toEqual([...new Set(classified)].sort());
  });

  it.each(JSON_ROUTES)('%s: a 2 MB body is 413 with the error body, with Content-Length and chunked', async (route) => {
    for (const mode of ['content-length', 'chunked'] as const) {
      const reply = await sendLarge(route, 2 * MB, mode, true);
      expect(reply.status, `${route} ${mode}`).toBe(413);
      expect(JSON.parse(reply.body)).toEqual({ statusCode: 413, message: `Request body exceeds ${MB} bytes`, error: 'Payload Too Large' });
    }
  });

  it.each(JSON_ROUTES)('%s: the 413 comes while the body is still being sent (never buffered whole)', async (route) => {
    for (const mode of ['content-length', 'chunked'] as const) {
      // 1.5 MB written and the body never ended: only a server that counts as it reads answers at all
      // (one that buffers the whole body first waits forever, and the test times out).
      const reply = await sendLarge(route, 1.5 * MB, mode, false);
      expect(reply.status, `${route} ${mode}`).toBe(413);
    }
  });

  /** One small body sent in two writes, with Content-Length or chunked. */
  function sendSmall(body: Buffer, mode: 'content-length' | 'chunked'): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const url = new URL('/v1/payments', server.url);
      const headers: Record<string, string> = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      if (mode === 'content-length') headers['content-length'] = String(body.length);
      const req = request(url, { method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      // Split inside a multi-byte character, so a reader that decodes chunk by chunk would garble it.
      const cut = body.indexOf(Buffer.from('€', 'utf8')) + 1;
      req.write(body.subarray(0, cut));
      req.end(body.subarray(cut));
    });
  }

  it('a body within the cap reads the same with Content-Length (read whole) and chunked (streamed)', async () => {
    for (const mode of ['content-length', 'chunked'] as const) {
      const title = `Caf\u00e9 \u20ac ${mode}`;
      const ok = await sendSmall(Buffer.from(JSON.stringify({ amount: '12.50', currency: 'EUR', title }), 'utf8'), mode);
      expect(ok.status, mode).toBe(201);
      expect((JSON.parse(ok.body) as { title?: string }).title, mode).toBe(title);
      // A leading byte-order mark is not JSON: refused as before, at path [].
      const bom = await sendSmall(
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"amount":"1","currency":"EUR","title":"€"}')]),
        mode,
      );
      expect(bom.status, mode).toBe(400);
    }
  });

  it('a client that closes the connection mid-body is a 400 in the request log, never an unhandled error with a stack', async () => {
    loggedErrors.length = 0;
    const { hostname, port } = new URL(server.url);
    for (const route of JSON_ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      const seen = requests.length;
      // Declares 1,000 bytes, sends a few, then goes away: the body can never be complete.
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.write(
        `${method} ${concrete(path)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"amount":',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      const record = await vi.waitFor(
        () => {
          const found = requests.slice(seen).find((r) => r.method === method);
          if (!found) throw new Error(`${route}: not answered yet`);
          return found;
        },
        { timeout: 20_000, interval: 25 },
      );
      expect(record.status, route).toBeLessThan(500);
    }
    expect(loggedErrors).toEqual([]);
  });
});
