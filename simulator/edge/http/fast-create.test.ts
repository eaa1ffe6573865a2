// The fast create path answers a plain valid create exactly as the Hono chain does (status, header names, order and
// values, body, log record, rate-limit count), and hands every other request to the chain, which answers it as
// before. Two servers with the same seed, one with the path and one without, get the same requests side by side.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../logging/log-records.ts';
import type { RunningServer } from '../../runtime/server.ts';
import { startServer } from '../../runtime/server.ts';

const KEY = 'pk_fastcreate000000000000000000000000000000000000000';
const quiet = { info() {}, error() {} };

interface Raw {
  status: number;
  /** Header names and values as they came, Date left out (the two answers may straddle a second). */
  headers: string[];
  body: string;
}

interface Side {
  server: RunningServer;
  logs: LogRecord[];
  /** Per request the fast path was asked about: whether it answered it itself (false: declined or handed over). */
  taken: (() => boolean)[];
}

function send(url: string, body: string, headers: Record<string, string | undefined> = {}, path = '/v1/payments'): Promise<Raw> {
  const u = new URL(url);
  const all: Record<string, string> = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete all[name];
    else all[name] = value;
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers: all, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const raw: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i] !== 'Date') raw.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers: raw, body: text });
      });
    });
    req.on('error', reject);
    if (headers['transfer-encoding'] === 'chunked') {
      req.write(body.slice(0, 5));
      req.end(body.slice(5));
    } else req.end(body);
  });
}

// A day-long rate-limit window (aligned to UTC midnight): the two servers' requests, a few ms apart, never fall in
// different windows, which would give them different counts and Reset headers (a minute window did under load).
async function side(fastCreate: boolean, rateLimit = 1000): Promise<Side> {
  const logs: LogRecord[] = [];
  const taken: (() => boolean)[] = [];
  const server = await startServer({ port: 0, defaultApiKey: KEY, seed: 'fast-create', logger: quiet, log: (r) => logs.push(r), rateLimit: { limit: rateLimit, windowSeconds: 86_400 }, fastCreate });
  const fast = server.simulator.fastCreate;
  if (fast) {
    server.simulator.fastCreate = (incoming, outgoing, fallback) => {
      let handedOver = false;
      const took = fast(incoming, outgoing, (...args) => {
        handedOver = true;
        fallback(...args);
      });
      taken.push(() => took && !handedOver);
      return took;
    };
  }
  return { server, logs, taken };
}

/** What differs between the two servers by construction: their port (in paymentUrl) and the clock's milliseconds. */
// Retry-After (and the 429 message) counts whole seconds to the window's end from the moment of the answer: two
// answers a few ms apart may straddle a second. A whole number of seconds is kept as such; anything else stays as sent (and differs).
const normalised = (raw: Raw, url: string): Raw => ({
  ...raw,
  headers: raw.headers.map((h) => (/^retry-after: [1-9]\d*$/i.test(h) ? 'retry-after: <whole seconds>' : h)),
  body: raw.body.replaceAll(url, 'URL').replace(/"(expiresAt|createdAt)":"[^"]+"/g, '"$1":"T"').replace(/retry in [1-9]\d* s/g, 'retry in <whole seconds> s'),
});

let fast: Side;
let chain: Side;

beforeAll(async () => {
  [fast, chain] = await Promise.all([side(true), side(false)]);
});
afterAll(async () => {
  await Promise.all([fast.server.close(), chain.server.close()]);
});

async function both(body: string, headers: Record<string, string | undefined> = {}, path?: string): Promise<[Raw, Raw]> {
  const a = await send(fast.server.url, body, headers, path);
  const b = await send(chain.server.url, body, headers, path);
  return [normalised(a, fast.server.url), normalised(b, chain.server.url)];
}

const create = (externalId: string): string => JSON.stringify({ amount: '100.50', currency: 'USD', title: 'fast', externalId });

describe('fast create path', () => {
  it('answers a valid create itself, with the status, headers (names, order, values) and body the chain gives', async () => {
    const before = fast.taken.length;
    const [a, b] = await both(create('same-1'));
    expect(fast.taken.slice(before).map((t) => t())).toEqual([true]);
    expect(a.status).toBe(201);
    expect(a.headers).toEqual(b.headers);
    expect(a.headers).toContain('content-type: application/json');
    expect(a.body).toBe(b.body);
    expect(JSON.parse(a.body)).toMatchObject({ status: 'ACTIVE', externalId: 'same-1', paymentUrl: expect.stringMatching(/^URL\/p\//) });
    // The payment is the simulator's own: retrieve finds it (asked of both servers, so their counts stay alike).
    const id = JSON.parse(a.body).id as string;
    for (const { server } of [fast, chain]) {
      const got = await fetch(`${server.url}/v1/payments/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(got.status).toBe(200);
    }
  });

  it('hands every other request to the chain, which answers it as it answers without the path', async () => {
    const cases: [string, string, Record<string, string | undefined>, string?][] = [
      ['externalId in use', create('same-1'), {}],
      ['invalid create', JSON.stringify({ amount: '-1', currency: 'USD' }), {}],
      ['not JSON', 'not json', {}],
      ['empty body', '', {}],
      ['another content type', create('ct'), { 'content-type': 'text/plain' }],
      ['no content type', create('no-ct'), { 'content-type': undefined }],
      ['unknown key', create('key'), { authorization: 'Bearer pk_unknown000000000000000000000000000000000000000' }],
      ['no key', create('nokey'), { authorization: undefined }],
      ['chunked body', create('chunked'), { 'content-length': undefined, 'transfer-encoding': 'chunked' }],
      ['over the body cap', create('big'), { 'content-length': '1000001' }],
      ['query string', create('query'), {}, '/v1/payments?x=1'],
      ['trailing slash', create('slash'), {}, '/v1/payments/'],
    ];
    for (const [what, body, headers, path] of cases) {
      const before = fast.taken.length;
      const [a, b] = await both(body, headers, path);
      expect({ what, ...a }).toEqual({ what, ...b });
      expect(fast.taken.slice(before).map((t) => t()), what).not.toContain(true);
    }
    // Handed-over requests were counted once: the remaining count moved alike on both servers.
    const [a, b] = await both(create('after'));
    expect(a.headers).toEqual(b.headers);
  });

  it('logs the same record as the chain (ms aside)', () => {
    const strip = (logs: LogRecord[]) => logs.map((r) => ({ ...r, ms: 0 }));
    expect(strip(fast.logs)).toEqual(strip(chain.logs));
    expect(fast.logs.length).toBeGreaterThan(10);
  });

  it('leaves a request over the rate limit to the chain: its 429 and headers as before', async () => {
    const [limitedFast, limitedChain] = await Promise.all([side(true, 2), side(false, 2)]);
    try {
      const answers: [Raw, Raw][] = [];
      for (let i = 0; i < 3; i++) {
        const a = await send(limitedFast.server.url, create(`limited-${i}`));
        const b = await send(limitedChain.server.url, create(`limited-${i}`));
        answers.push([normalised(a, limitedFast.server.url), normalised(b, limitedChain.server.url)]);
      }
      expect(answers.map(([a]) => a.status)).toEqual([201, 201, 429]);
      for (const [a, b] of answers) {
        expect(a.headers).toEqual(b.headers);
        expect(a.body).toBe(b.body);
      }
      expect(limitedFast.taken.map((t) => t())).toEqual([true, true, false]);
    } finally {
      await Promise.all([limitedFast.server.close(), limitedChain.server.close()]);
    }
  });
});

describe('fast create path, on its own', () => {
  it('hands the request over when a check throws instead of refusing, having changed nothing', async () => {
    const { fastCreate } = await import('./fast-create.ts');
    const { PassThrough } = await import('node:stream');
    const hits: string[] = [];
    const record = { id: 'k1', merchantId: 'm1', revokedAt: null, expiresAt: null, allowList: null };
    const path = fastCreate({
      keys: { findByKey: () => record as never, touch: () => hits.push('touch') },
      clock: { now: () => 1_800_000_000_000 },
      limiter: { allows: () => true, hit: () => {
        hits.push('hit');
        return { allowed: true, limit: 1, remaining: 0, resetAt: 0, retryAfter: 1 };
      } },
      payments: {
        checkCreate: () => {
          throw new TypeError('a validator bug');
        },
        createChecked: () => {
          hits.push('create');
          return undefined as never;
        },
        store: { liveHolder: () => undefined } as never,
      },
      payUrl: 'http://x',
      logger: quiet,
      log: undefined,
    });
    const incoming = Object.assign(new PassThrough(), {
      method: 'POST',
      url: '/v1/payments',
      rawHeaders: ['Host', 'localhost:4000', 'Authorization', `Bearer ${KEY}`, 'Content-Type', 'application/json', 'Content-Length', '2'],
      socket: { remoteAddress: '127.0.0.1' },
    });
    const handed = new Promise<unknown>((resolve) => {
      expect(path(incoming as never, {} as never, (i) => resolve((i as unknown as { rawBody?: Buffer }).rawBody?.toString()))).toBe(true);
    });
    incoming.end('{}');
    expect(await handed).toBe('{}');
    expect(hits).toEqual([]);
  });

  const BODY = JSON.stringify({ amount: '10.00', currency: 'USD' });
  it('durable mode: the answer waits for the commit; a commit that fails is answered 500 with the generic error body', async () => {
    const { fastCreate } = await import('./fast-create.ts');
    const { PassThrough } = await import('node:stream');
    const { createSimulator } = await import('../../runtime/app.ts');
    const sim = createSimulator({ defaultApiKey: KEY, logger: quiet, seed: 'fast-durable' });
    const run = async (commit: Promise<void>) => {
      const events: string[] = [];
      const payments = {
        checkCreate: sim.payments.checkCreate.bind(sim.payments),
        createChecked: (...args: Parameters<typeof sim.payments.createChecked>) => {
          events.push('created');
          return sim.payments.createChecked(...args);
        },
        store: sim.payments.store,
      };
      const path = fastCreate({
        keys: sim.keys,
        clock: sim.clock,
        limiter: sim.limiter,
        payments,
        payUrl: 'http://x',
        logger: quiet,
        log: undefined,
        beforeAnswer: () => {
          events.push('commit asked');
          return commit;
        },
      });
      const incoming = Object.assign(new PassThrough(), {
        method: 'POST',
        url: '/v1/payments',
        rawHeaders: ['Host', 'localhost:4000', 'Authorization', `Bearer ${KEY}`, 'Content-Type', 'application/json', 'Content-Length', String(BODY.length)],
        socket: { remoteAddress: '127.0.0.1' },
      });
      const answered = new Promise<{ status: number; body: string }>((resolve) => {
        let status = 0;
        const outgoing = { writeHead: (s: number) => {
            events.push('answered');
            status = s;
          }, end: (body: string) => resolve({ status, body }) };
        expect(path(incoming as never, outgoing as never, () => events.push('handed over'))).toBe(true);
      });
      incoming.end(BODY);
      return { answered, events };
    };
    let commitDone!: () => void;
    const ok = await run(new Promise<void>((resolve) => (commitDone = resolve)));
    await new Promise((r) => setTimeout(r, 20));
    expect(ok.events).toEqual(['created', 'commit asked']);
    commitDone();
    expect((await ok.answered).status).toBe(201);
    expect(ok.events).toEqual(['created', 'commit asked', 'answered']);

    const failed = await run(Promise.reject(new Error('disk full')));
    const answer = await failed.answered;
    expect(answer.status).toBe(500);
    // The body the app's error handler gives an unhandled error.
    const { ApiError } = await import('./errors.ts');
    const { MESSAGES } = await import('./messages.ts');
    expect(JSON.parse(answer.body)).toEqual(new ApiError(500, MESSAGES.internal).body());
    await sim.close();
  });
});
