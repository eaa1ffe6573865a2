// The direct path of POST /v1/payments answers exactly as the Hono chain does (status, header names, order and values,
// body, log record, rate-limit count), refusals included, and hands the chain only what it does not frame itself.
// Two servers with the same seed, one with the path and one without, get the same requests side by side.
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../logging/log-records.ts';
import type { RunningServer } from '../../runtime/server.ts';
import { directPath, type DirectPath } from './direct-path.ts';
import { ApiError } from './errors.ts';
import { MESSAGES } from './messages.ts';
import type { DirectStep } from './pipeline.ts';
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
  /** Per request the direct path was asked about: whether it answered it itself (false: declined or handed over). */
  taken: (() => boolean)[];
}

function send(url: string, body: string, headers: Record<string, string | undefined> = {}, path = '/v1/payments'): Promise<Raw> {
  const u = new URL(url);
  const all: Record<string, string> = {
    authorization: `Bearer ${KEY}`,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  };
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
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i] !== 'Date') raw.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
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
async function side(directPath: boolean, rateLimit = 1000): Promise<Side> {
  const logs: LogRecord[] = [];
  const taken: (() => boolean)[] = [];
  const server = await startServer({
    port: 0,
    defaultApiKey: KEY,
    seed: 'direct-path',
    logger: quiet,
    log: (r) => logs.push(r),
    rateLimit: { limit: rateLimit, windowSeconds: 86_400 },
    directPath,
  });
  const fast = server.simulator.directPath;
  if (fast) {
    server.simulator.directPath = (incoming, outgoing) => {
      const took = fast(incoming, outgoing);
      taken.push(() => took);
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
  body: raw.body
    .replaceAll(url, 'URL')
    .replace(/"(expiresAt|createdAt)":"[^"]+"/g, '"$1":"T"')
    .replace(/retry in [1-9]\d* s/g, 'retry in <whole seconds> s'),
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

describe('direct path of POST /v1/payments', () => {
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

  it('answers refusals itself, exactly as the chain answers them (status, headers, body)', async () => {
    const cases: [string, string, Record<string, string | undefined>][] = [
      ['externalId in use', create('same-1'), {}],
      ['invalid create', JSON.stringify({ amount: '-1', currency: 'USD' }), {}],
      ['not JSON', 'not json', {}],
      ['empty body', '', {}],
      ['unknown key', create('key'), { authorization: 'Bearer pk_unknown000000000000000000000000000000000000000' }],
      ['no key', create('nokey'), { authorization: undefined }],
    ];
    for (const [what, body, headers] of cases) {
      const before = fast.taken.length;
      const [a, b] = await both(body, headers);
      expect(a.status, what).toBeGreaterThanOrEqual(400);
      expect({ what, ...a }).toEqual({ what, ...b });
      expect(
        fast.taken.slice(before).map((t) => t()),
        what,
      ).toEqual([true]);
    }
  });

  it('hands what it does not frame itself to the chain, untouched, which answers it as it answers without the path', async () => {
    const cases: [string, string, Record<string, string | undefined>, string?][] = [
      ['another content type', create('ct'), { 'content-type': 'text/plain' }],
      ['no content type', create('no-ct'), { 'content-type': undefined }],
      ['chunked body', create('chunked'), { 'content-length': undefined, 'transfer-encoding': 'chunked' }],
      ['over the body cap', create('big'), { 'content-length': '1000001' }],
      ['query string', create('query'), {}, '/v1/payments?x=1'],
      ['trailing slash', create('slash'), {}, '/v1/payments/'],
    ];
    for (const [what, body, headers, path] of cases) {
      const before = fast.taken.length;
      const [a, b] = await both(body, headers, path);
      expect({ what, ...a }).toEqual({ what, ...b });
      expect(
        fast.taken.slice(before).map((t) => t()),
        what,
      ).not.toContain(true);
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

  it("answers a request over the rate limit with the chain's 429 and headers", async () => {
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
      expect(limitedFast.taken.map((t) => t())).toEqual([true, true, true]);
    } finally {
      await Promise.all([limitedFast.server.close(), limitedChain.server.close()]);
    }
  });
});

describe('direct path, on its own', () => {
  const BODY = JSON.stringify({ amount: '10.00', currency: 'USD' });
  const incomingRequest = (body: string) =>
    Object.assign(new PassThrough(), {
      method: 'POST',
      url: '/v1/payments',
      rawHeaders: [
        'Host',
        'localhost:4000',
        'Authorization',
        `Bearer ${KEY}`,
        'Content-Type',
        'application/json',
        'Content-Length',
        String(body.length),
      ],
      socket: { remoteAddress: '127.0.0.1' },
    });
  async function answer(path: DirectPath, events: string[]): Promise<{ status: number; body: string }> {
    const incoming = incomingRequest(BODY);
    const answered = new Promise<{ status: number; body: string }>((resolve) => {
      let status = 0;
      const outgoing = {
        writeHead: (s: number) => {
          events.push('answered');
          status = s;
        },
        end: (body: string) => resolve({ status, body }),
      };
      expect(path(incoming as never, outgoing as never)).toBe(true);
    });
    incoming.end(BODY);
    return answered;
  }
  const genericError = new ApiError(500, MESSAGES.internal).body();

  it("an unexpected error in the route is answered 500 with the generic body and logged, as the chain's error handler does", async () => {
    const logged: string[] = [];
    const events: string[] = [];
    const path = directPath({
      steps: [],
      route: {
        method: 'POST',
        path: '/v1/payments',
        handle: () => {
          throw new TypeError('a validator bug');
        },
      },
      logger: { info() {}, error: (message) => logged.push(message) },
    });
    const answered = await answer(path, events);
    expect(answered.status).toBe(500);
    expect(JSON.parse(answered.body)).toEqual(genericError);
    expect(logged).toEqual(['Unhandled error on POST /v1/payments']);
    expect(events).toEqual(['answered']);
  });

  it("runs the stages' steps in order around the route; a step that refuses stops the route", async () => {
    const events: string[] = [];
    const step = (name: string, refuse = false): DirectStep => ({
      before: () => {
        events.push(name);
        if (refuse) throw new ApiError(401, 'no');
      },
      afterAnswer: (_request, status) => events.push(`${name} saw ${status}`),
    });
    const route = {
      method: 'POST',
      path: '/v1/payments',
      handle: () => {
        events.push('route');
        return { status: 201, body: {} };
      },
    };
    expect((await answer(directPath({ steps: [step('a'), step('b')], route, logger: quiet }), events)).status).toBe(201);
    expect(events).toEqual(['a', 'b', 'route', 'answered', 'a saw 201', 'b saw 201']);
    events.length = 0;
    expect((await answer(directPath({ steps: [step('a', true), step('b')], route, logger: quiet }), events)).status).toBe(401);
    expect(events).toEqual(['a', 'answered', 'a saw 401', 'b saw 401']);
  });

  it('durable mode: the answer waits for the commit; a commit that fails is answered 500 with the generic error body', async () => {
    const run = async (commit: Promise<void>) => {
      const events: string[] = [];
      const path = directPath({
        steps: [
          {
            beforeAnswer: () => {
              events.push('commit asked');
              return commit;
            },
          },
        ],
        route: {
          method: 'POST',
          path: '/v1/payments',
          handle: () => {
            events.push('created');
            return { status: 201, body: { id: 'p1' } };
          },
        },
        logger: quiet,
      });
      return { answered: answer(path, events), events };
    };
    let commitDone!: () => void;
    const ok = await run(new Promise<void>((resolve) => (commitDone = resolve)));
    await new Promise((r) => setTimeout(r, 20));
    expect(ok.events).toEqual(['created', 'commit asked']);
    commitDone();
    expect((await ok.answered).status).toBe(201);
    expect(ok.events).toEqual(['created', 'commit asked', 'answered']);

    const failed = await run(Promise.reject(new Error('disk full')));
    const answered = await failed.answered;
    expect(answered.status).toBe(500);
    expect(JSON.parse(answered.body)).toEqual(genericError);
  });
});
