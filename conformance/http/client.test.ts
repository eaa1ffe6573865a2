// The recording client against servers that misbehave: one deadline over connect, headers and body; bodies read up
// to the cap only; redirects never followed; every failure one sentence with its kind; a scope that stops a check's
// requests; the recorder's budget for kept bodies.
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBrokenServer, type BrokenKind, type BrokenServer } from '../test-support/broken-servers.ts';
import { createDispatcher, HttpClient, TransportError } from './client.ts';
import { Recorder } from './recorder.ts';
import { SecretRegistry } from './redact.ts';
import { RequestScope, runInScope, ScopeAborted } from './request-scope.ts';

const dispatcher = createDispatcher();
const servers: BrokenServer[] = [];

function client(baseUrl: string, recorder = new Recorder(), limits: { timeoutMs?: number; maxResponseBytes?: number } = {}): HttpClient {
  return new HttpClient({
    baseUrl,
    target: 'service',
    recorder,
    secrets: new SecretRegistry(),
    credential: null,
    timeoutMs: limits.timeoutMs ?? 1_000,
    maxResponseBytes: limits.maxResponseBytes ?? 64 * 1024,
    dispatcher,
  });
}

async function failureOf(
  kind: BrokenKind,
  limits?: { timeoutMs?: number; maxResponseBytes?: number },
): Promise<{ error: TransportError; ms: number; recorder: Recorder }> {
  const server = await startBrokenServer(kind);
  servers.push(server);
  const recorder = new Recorder();
  const started = performance.now();
  const error = await client(server.url, recorder, limits)
    .get('/v1/payments')
    .then(
      () => expect.fail(`${kind} answered`),
      (e: unknown) => e as TransportError,
    );
  expect(error).toBeInstanceOf(TransportError);
  return { error, ms: performance.now() - started, recorder };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await dispatcher.close();
});

describe('HttpClient against broken servers', () => {
  it('ends a body dripped a byte a second at the whole-request deadline, not at the idle time-out between bytes', async () => {
    const { error, ms, recorder } = await failureOf('slow-drip', { timeoutMs: 2_500 });
    expect(error.kind).toBe('timeout');
    expect(error.reason).toMatch(
      /^no complete answer within 2\.5 s \(--request-timeout\): answered 200 but the body was still arriving after [12] bytes$/,
    );
    expect(ms).toBeGreaterThan(2_400);
    expect(ms).toBeLessThan(10_000);
    // What had arrived is recorded with the status, so a reproduction shows it.
    expect(recorder.all()[0]).toMatchObject({ status: 200, transportError: error.reason });
    expect(recorder.answered()).toEqual([]);
  });

  it('ends a held connection and one that sends headers and then nothing at the deadline', async () => {
    const silent = await failureOf('no-answer', { timeoutMs: 300 });
    expect(silent.error.reason).toBe('no complete answer within 0.3 s (--request-timeout): no response headers came');
    const headersOnly = await failureOf('headers-then-silence', { timeoutMs: 300 });
    expect(headersOnly.error.reason).toBe('no complete answer within 0.3 s (--request-timeout): answered 200 but sent none of the body');
  });

  it('stops reading a body past the cap (chunked: counted; with Content-Length: refused before reading)', async () => {
    const chunked = await failureOf('huge-body', { maxResponseBytes: 100_000 });
    expect(chunked.error.kind).toBe('too-large');
    expect(chunked.error.reason).toBe('answered 200 with a body over 97.7 KiB (--max-response-bytes); the suite stopped reading it');
    // The recorded exchange keeps only the start of what came.
    expect(chunked.recorder.all()[0]!.responseBody.length).toBeLessThanOrEqual(64 * 1024 + 2048);

    const declared: Server = createServer((_req, res) => res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).write('x'));
    await new Promise<void>((resolve) => declared.listen(0, '127.0.0.1', resolve));
    try {
      const error = await client(`http://127.0.0.1:${(declared.address() as { port: number }).port}`, new Recorder(), {
        maxResponseBytes: 1024 * 1024,
      })
        .get('/')
        .catch((e: TransportError) => e);
      expect(error).toMatchObject({
        kind: 'too-large',
        reason: 'answered 200 with a body over 1 MiB (--max-response-bytes); the suite stopped reading it',
      });
    } finally {
      declared.closeAllConnections();
      declared.close();
    }
  });

  it('says what kind of non-answer it was: closed, not HTTP', async () => {
    expect((await failureOf('connection-closed')).error).toMatchObject({
      kind: 'closed',
      reason: 'the connection was closed without an answer',
    });
    expect((await failureOf('tcp-close')).error).toMatchObject({ kind: 'closed', reason: 'the connection was closed without an answer' });
    expect((await failureOf('non-http-bytes')).error.kind).toBe('not-http');
    const refused = await client('http://127.0.0.1:1')
      .get('/')
      .catch((e: TransportError) => e);
    expect(refused).toMatchObject({ kind: 'refused', reason: 'connection refused (nothing listens at 127.0.0.1:1)' });
  });

  it('never follows a redirect: a 3xx is an answer like any other', async () => {
    for (const kind of ['redirect-loop', 'redirect-to-closed-port'] as const) {
      const server = await startBrokenServer(kind);
      servers.push(server);
      const response = await client(server.url).get('/v1/payments');
      expect(response.status).toBe(302);
      expect(response.headers.location).toMatch(/\/v1\/payments$/);
    }
  });

  it('refuses the requests of a scope that was aborted, at once, and records them under its check', async () => {
    const server = await startBrokenServer('null-body');
    servers.push(server);
    const recorder = new Recorder();
    const api = client(server.url, recorder);
    const stop = new AbortController();
    const scope = new RequestScope('unit.aborted', stop.signal);
    const pending = runInScope(scope, async () => {
      await api.get('/first');
      stop.abort(new ScopeAborted('the run was interrupted by SIGINT'));
      return api.get('/second');
    });
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', reason: 'not completed: the run was interrupted by SIGINT' });
    expect(recorder.all().map((e) => [e.checkId, new URL(e.url).pathname, e.status])).toEqual([
      ['unit.aborted', '/first', 200],
      ['unit.aborted', '/second', null],
    ]);
    expect(scope.pending.size).toBe(0);
  });
});

describe('Recorder', () => {
  let recorder: Recorder;
  const exchange = (body: string) => ({
    target: 'service' as const,
    method: 'GET',
    url: 'http://x/v1/payments',
    requestHeaders: {},
    credential: { kind: 'none' as const },
    requestBody: undefined,
    status: 200,
    responseHeaders: {},
    responseBody: body,
    durationMs: 1,
    transportError: null,
    startedAt: '',
  });

  beforeAll(() => {
    recorder = new Recorder(10_000);
  });

  it('keeps bodies whole within its budget, then only their start, and leaves cut ones out of what is judged', () => {
    const kept = recorder.add(exchange('a'.repeat(6_000)));
    const cut = recorder.add(exchange('b'.repeat(6_000)));
    expect(kept.responseBody).toHaveLength(6_000);
    expect(kept.responseBodyTruncated).toBeUndefined();
    expect(cut.responseBody).toHaveLength(4_096);
    expect(cut.responseBodyTruncated).toEqual({ bytes: 6_000 });
    expect(recorder.answered().map((e) => e.id)).toEqual([kept.id]);
  });
});

describe('RenewableAgent', () => {
  it('keeps connections alive; after renew() no request uses an old connection, and a request in flight ends on its own', async () => {
    const sockets: unknown[] = [];
    const server: Server = createServer((req, res) => {
      sockets.push(req.socket);
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), req.url === '/slow' ? 300 : 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const own = createDispatcher();
    const http = new HttpClient({
      baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      target: 'service',
      recorder: new Recorder(),
      secrets: new SecretRegistry(),
      credential: null,
      timeoutMs: 2_000,
      maxResponseBytes: 1024,
      dispatcher: own,
    });
    try {
      for (let i = 0; i < 10; i++) await http.get('/before');
      const before = new Set(sockets);
      // Kept alive: ten requests one after the other on one or two connections (undici may open a second while the
      // first is being handed back), not ten.
      expect(before.size).toBeLessThanOrEqual(2);
      const slow = http.get('/slow');
      await new Promise((resolve) => setTimeout(resolve, 50));
      own.renew();
      sockets.length = 0;
      for (let i = 0; i < 10; i++) await http.get('/after');
      const after = new Set(sockets);
      expect(after.size).toBeLessThanOrEqual(2);
      expect([...after].filter((socket) => before.has(socket))).toEqual([]);
      expect((await slow).status).toBe(200);
    } finally {
      await own.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
