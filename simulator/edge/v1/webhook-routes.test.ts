import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { createWebhookService, type WebhookService } from '../../core/webhooks/service.ts';
import { capturingFetch, jsonRequest, testApp } from '../../test-support/webhooks.ts';

const START = Date.parse('2026-11-21T10:00:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let clock: VirtualClock;
let service: WebhookService;
let app: ReturnType<typeof testApp>;
let calls: ReturnType<typeof capturingFetch>['calls'];

beforeEach(() => {
  clock = new VirtualClock({ wallNow: () => START });
  const captured = capturingFetch();
  calls = captured.calls;
  service = createWebhookService({ clock, fetch: captured.fetch });
  app = testApp(service);
});
afterEach(async () => {
  await service.close();
  clock.dispose();
});

const call = async (merchant: string | undefined, method: string, path: string, body?: unknown) => {
  const res = await app.request(`/v1/webhooks${path}`, jsonRequest(merchant, method, body));
  return { status: res.status, body: (await res.json()) as any };
};

describe('endpoint configuration', () => {
  it('GET is 404 until an endpoint exists, then 200 without the secret', async () => {
    const missing = await call('m1', 'GET', '');
    expect(missing).toEqual({ status: 404, body: { statusCode: 404, message: 'Webhook endpoint not found', error: 'Not Found' } });

    const created = await call('m1', 'POST', '', { url: 'https://merchant.example/hooks' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      url: 'https://merchant.example/hooks',
      enabled: true,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      secretLast4: created.body.secret.slice(-4),
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
    });

    const read = await call('m1', 'GET', '');
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const { secret: _shownOnce, ...view } = created.body;
    expect(read.body).toEqual(view);
  });

  it('POST twice is 409; endpoints are per merchant', async () => {
    expect((await call('m1', 'POST', '', { url: 'http://a.example/' })).status).toBe(201);
    const again = await call('m1', 'POST', '', { url: 'http://b.example/' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect((await call('m2', 'GET', '')).status).toBe(404);
    expect((await call('m2', 'POST', '', { url: 'http://b.example/', enabled: false })).body.enabled).toBe(false);
    expect((await call('m1', 'GET', '')).body.url).toBe('http://a.example/');
  });

  it('PUT is 404 without an endpoint and updates url and enabled', async () => {
    expect((await call('m1', 'PUT', '', { enabled: false })).status).toBe(404);
    const created = await call('m1', 'POST', '', { url: 'http://a.example/' });
    await clock.advance(5_000);
    const updated = await call('m1', 'PUT', '', { url: 'https://b.example/x?y=1', enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: created.body.id,
      url: 'https://b.example/x?y=1',
      enabled: false,
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:05.000Z',
    });
    expect(updated.body).not.toHaveProperty('secret');
    expect((await call('m1', 'PUT', '', { enabled: true })).body).toMatchObject({ url: 'https://b.example/x?y=1', enabled: true });
  });

  it('PUT with no field is 400 with path []', async () => {
    await call('m1', 'POST', '', { url: 'http://a.example/' });
    const res = await call('m1', 'PUT', '', {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: [], message: 'At least one of url, enabled is required' }]);
  });

  it.each([
    [{}, ['url'], 'url is required'],
    [{ url: 42 }, ['url'], 'url must be a string'],
    [{ url: '/relative/hook' }, ['url'], 'url must be an absolute http or https URL'],
    [{ url: 'ftp://files.example/' }, ['url'], 'url must be an absolute http or https URL'],
    [{ url: 'http:host.example' }, ['url'], 'url must be an absolute http or https URL'],
    [{ url: ' https://a.example/' }, ['url'], 'url must be an absolute http or https URL'],
    [{ url: 'https://a.example/a b' }, ['url'], 'url must be an absolute http or https URL'],
    [{ url: 'https://' }, ['url'], 'url must be an absolute http or https URL'],
    [{ url: 'https://user:pw@a.example/' }, ['url'], 'url must not contain credentials'],
    [{ url: `https://a.example/${'x'.repeat(2049 - 'https://a.example/'.length)}` }, ['url'], 'url must be at most 2048 characters'],
    [{ url: 'https://a.example/', enabled: 'yes' }, ['enabled'], 'enabled must be a boolean'],
    [{ url: 'https://a.example/', enabled: null }, ['enabled'], 'enabled must be a boolean'],
    [{ url: 'https://a.example/', secret: 'mine' }, ['secret'], 'Unknown field: secret'],
  ])('POST %j is 400 at %j', async (body, path, message) => {
    const res = await call('m1', 'POST', '', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Validation failed', error: 'Bad Request', errors: [{ path, message }] });
    expect((await call('m1', 'GET', '')).status).toBe(404); // no partial write
  });

  it('accepts a URL of exactly 2048 characters', async () => {
    const url = `https://a.example/${'x'.repeat(2048 - 'https://a.example/'.length)}`;
    expect((await call('m1', 'POST', '', { url })).status).toBe(201);
  });

  it('reports one errors[] entry per invalid field', async () => {
    const res = await call('m1', 'POST', '', { url: 'nope', enabled: 1, extra: true, more: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['extra'], ['more'], ['url'], ['enabled']]);
  });

  it.each(['[1,2]', 'null', '"string"'])('a body of %j is 400 with path []', async (raw) => {
    const res = await call('m1', 'POST', '', raw);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: [], message: 'Body must be a JSON object' }]);
  });

  // Parsing is the shared body pipeline's (http/json-body.ts), with its message, as on every JSON route.
  it.each(['not json', ''])('a body of %j is not JSON: 400 with path []', async (raw) => {
    const res = await call('m1', 'POST', '', raw);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: [], message: 'Request body is not valid JSON' }]);
  });

  it('answers 401, not 500, when no merchant was authenticated', async () => {
    expect((await call(undefined, 'GET', '')).status).toBe(401);
    expect((await call(undefined, 'GET', '/deliveries')).status).toBe(401);
  });

  it('never answers 5xx, whatever JSON arrives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'PUT'), fc.oneof(fc.json(), fc.string()), async (method, raw) => {
        const res = await app.request('/v1/webhooks', jsonRequest('fuzz', method, raw));
        expect(res.status).toBeLessThan(500);
        expect([200, 201, 400, 404, 409]).toContain(res.status);
      }),
      { numRuns: 300 },
    );
  });
});

describe('regenerate-secret', () => {
  it('is 404 without an endpoint; shows a new secret once and updates secretLast4', async () => {
    expect((await call('m1', 'POST', '/regenerate-secret')).status).toBe(404);
    const created = await call('m1', 'POST', '', { url: 'http://a.example/' });
    const rotated = await call('m1', 'POST', '/regenerate-secret');
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(rotated.body.secretLast4).toBe(rotated.body.secret.slice(-4));
    const read = await call('m1', 'GET', '');
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body.secretLast4).toBe(rotated.body.secret.slice(-4));
  });
});

describe('POST /v1/webhooks/test', () => {
  it('is 404 without an endpoint and 409 when it is disabled', async () => {
    expect((await call('m1', 'POST', '/test')).status).toBe(404);
    await call('m1', 'POST', '', { url: 'http://a.example/', enabled: false });
    const res = await call('m1', 'POST', '/test');
    expect(res.status).toBe(409);
    expect(calls).toHaveLength(0);
    expect(service.deliveries('m1')).toEqual([]);
  });

  it('is 202 with the delivery record; the payload is {event, timestamp} without data', async () => {
    await call('m1', 'POST', '', { url: 'http://a.example/hook' });
    const res = await call('m1', 'POST', '/test');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      event: 'test',
      paymentId: null,
      payoutId: null,
      url: 'http://a.example/hook',
      status: 'pending',
      attempts: [],
      nextAttemptAt: '2026-11-21T10:00:00.000Z',
      payload: { event: 'test', timestamp: '2026-11-21T10:00:00.000Z' },
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
    });
    await service.idle();
    expect(calls.map((c) => c.body)).toEqual(['{"event":"test","timestamp":"2026-11-21T10:00:00.000Z"}']);
    const [delivery] = service.deliveries('m1');
    expect(delivery).toMatchObject({ id: res.body.id, status: 'succeeded', nextAttemptAt: null });
    expect(delivery?.attempts).toEqual([
      { number: 1, attemptedAt: '2026-11-21T10:00:00.000Z', statusCode: 200, durationMs: expect.any(Number), error: null },
    ]);
  });
});

describe('GET /v1/webhooks/deliveries', () => {
  const paymentIds = Array.from({ length: 5 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);

  async function seed(count: number): Promise<void> {
    await call('m1', 'POST', '', { url: 'http://a.example/' });
    for (let i = 0; i < count; i++) {
      // Several events share a millisecond so the id tie-break is exercised.
      if (i % 3 === 0) await clock.advance(1);
      service.emit('m1', {
        type: i % 4 === 0 ? 'payment.completed' : 'payment.processing',
        paymentId: paymentIds[i % 5],
        externalId: `ext-${i}`,
      });
    }
    await service.idle();
  }

  const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
    a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1;

  it('walks every delivery exactly once, newest first, with the list envelope', async () => {
    await seed(45);
    const seen: { id: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call('m1', 'GET', `/deliveries?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
      seen.push(...res.body.data);
      pages += 1;
      expect(res.body.nextCursor).toBe(res.body.hasMore ? res.body.data.at(-1).id : null);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(pages).toBe(7);
    expect(seen).toHaveLength(45);
    expect(new Set(seen.map((d) => d.id)).size).toBe(45);
    expect(seen).toEqual([...seen].sort(newestFirst));
  });

  it('defaults to 20 and filters by event, status and paymentId', async () => {
    await seed(30);
    const first = await call('m1', 'GET', '/deliveries');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);

    const completed = await call('m1', 'GET', '/deliveries?event=payment.completed&limit=100');
    expect(completed.body.data).toHaveLength(8);
    expect(completed.body.data.every((d: { event: string }) => d.event === 'payment.completed')).toBe(true);

    const forPayment = await call('m1', 'GET', `/deliveries?paymentId=${paymentIds[2]}&limit=100`);
    expect(forPayment.body.data).toHaveLength(6);
    expect(forPayment.body.data.every((d: { paymentId: string }) => d.paymentId === paymentIds[2])).toBe(true);

    expect((await call('m1', 'GET', '/deliveries?status=succeeded&limit=100')).body.data).toHaveLength(30);
    expect((await call('m1', 'GET', '/deliveries?status=pending')).body).toEqual({ data: [], nextCursor: null, hasMore: false });
  });

  it.each(['0', '101', 'abc', '1.5', '-1', '', '1e1'])('limit=%s is 400 at ["limit"]', async (limit) => {
    const res = await call('m1', 'GET', `/deliveries?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: ['limit'], message: 'limit must be an integer between 1 and 100' }]);
  });

  it('refuses unknown and foreign cursors, bad filters, repeated parameters, each with its own entry', async () => {
    await seed(2);
    await call('m2', 'POST', '', { url: 'http://b.example/' });
    service.emit('m2', { type: 'payment.expired', paymentId: paymentIds[0] });
    const foreign = service.deliveries('m2')[0]!.id;
    expect((await call('m1', 'GET', `/deliveries?cursor=${foreign}`)).body.errors).toEqual([
      { path: ['cursor'], message: 'Unknown cursor' },
    ]);
    const res = await call('m1', 'GET', '/deliveries?limit=0&cursor=nope&event=payment.paid&status=done&paymentId=42');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['limit'], ['cursor'], ['event'], ['status'], ['paymentId']]);
    const twice = await call('m1', 'GET', '/deliveries?limit=1&limit=2');
    expect(twice.body.errors).toEqual([{ path: ['limit'], message: 'limit must be given at most once' }]);
  });

  it('never shows another merchant its deliveries', async () => {
    await seed(3);
    await call('m2', 'POST', '', { url: 'http://b.example/' });
    expect((await call('m2', 'GET', '/deliveries')).body.data).toEqual([]);
  });
});
