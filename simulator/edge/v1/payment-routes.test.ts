import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, SELLER_A, TEST_START } from '../../test-support/harness.ts';

let h: Harness;
afterEach(async () => h?.sim.close());

const CREATE_KEYS = [
  'id',
  'status',
  'amount',
  'currency',
  'title',
  'externalId',
  'acceptedChains',
  'acceptedTokens',
  'serviceFee',
  'merchantFee',
  'sellers',
  'paymentUrl',
  'expiresAt',
  'createdAt',
];
const RETRIEVE_KEYS = [
  'id',
  'status',
  'amount',
  'currency',
  'title',
  'externalId',
  'acceptedChains',
  'acceptedTokens',
  'serviceFee',
  'merchantFee',
  'sellers',
  'paymentUrl',
  'chainId',
  'token',
  'exchangeRate',
  'amountToken',
  'serviceFeeToken',
  'merchantFeeToken',
  'gasActual',
  'txHash',
  'error',
  'expiresAt',
  'paidAt',
  'createdAt',
  'updatedAt',
];

describe('POST /v1/payments', () => {
  it('answers 201 with exactly the create view, defaults applied', async () => {
    h = createHarness({ payUrl: 'https://pay.example.test/' });
    const res = await h.createPayment({ amount: '100.5', currency: 'EUR', title: 'Mug', sellers: [{ address: SELLER_A, amount: '50' }] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...CREATE_KEYS].sort());
    expect(res.body).toMatchObject({
      status: 'ACTIVE',
      amount: '100.5',
      currency: 'EUR',
      title: 'Mug',
      externalId: null,
      acceptedChains: [1, 42161, 8453, 137, 56],
      acceptedTokens: ['USDC', 'USDT'],
      serviceFee: '0.50',
      merchantFee: '50.25',
      sellers: [{ address: SELLER_A, amount: '49.75' }],
      paymentUrl: `https://pay.example.test/p/${res.body.id}`,
      createdAt: '2026-11-21T10:00:00.000Z',
      expiresAt: '2026-11-21T11:00:00.000Z',
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('emits no payment.created for API-key creates', async () => {
    h = createHarness();
    await h.createPayment();
    expect(h.webhooks.types()).toEqual([]);
  });

  it.each([
    ['text/plain', '{"amount":"1","currency":"USD"}'],
    [undefined, '{"amount":"1","currency":"USD"}'],
    ['application/json', '{"amount":'],
    ['application/json', ''],
    ['application/json', '[]'],
    ['application/json', 'null'],
  ])('rejects content type %s with body %j as a 400 at path []', async (contentType, raw) => {
    h = createHarness();
    const res = await h.request('POST', '/v1/payments', { raw, headers: contentType ? { 'content-type': contentType } : {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed', errors: [{ path: [] }] });
  });

  it('returns one errors[] entry per invalid field', async () => {
    h = createHarness();
    const res = await h.createPayment({ amount: '1.001', currency: 'usd', extra: true, sellers: [{ address: '0x1', amount: '1' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string[] }) => e.path)).toEqual([
      ['extra'],
      ['currency'],
      ['amount'],
      ['sellers', '0', 'address'],
    ]);
  });
});

describe('externalId uniqueness', () => {
  it('is 409 while the holder is live and reusable once it is terminal', async () => {
    h = createHarness();
    const first = await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' });
    const dup = await h.createPayment({ amount: '20', currency: 'USD', externalId: 'order-1' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ statusCode: 409, message: 'A payment with this externalId already exists', error: 'Conflict' });
    // PROCESSING and SUCCESSFUL still hold it.
    await h.request('POST', `/control/v1/payments/${first.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    expect((await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' })).status).toBe(409);
    await h.request('POST', `/control/v1/payments/${first.body.id}/fail`, { body: {} });
    const reused = await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' });
    expect(reused.status).toBe(201);
    await h.request('DELETE', `/v1/payments/${reused.body.id}`);
    const third = await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' });
    expect(third.status).toBe(201);
    await h.request('POST', `/control/v1/payments/${third.body.id}/pay`, { body: { chainId: 8453, token: 'USDC' } });
    expect((await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' })).status).toBe(409);
    // Another merchant has its own namespace.
    const other = await h.request('POST', '/control/v1/merchants', { body: { name: 'Other' } });
    expect((await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' }, other.body.apiKey.key)).status).toBe(201);
  });

  it('is reusable after expiry', async () => {
    h = createHarness();
    await h.createPayment({ amount: '10', currency: 'USD', externalId: 'exp' });
    await h.sim.clock.advance(3_600_000);
    expect((await h.createPayment({ amount: '10', currency: 'USD', externalId: 'exp' })).status).toBe(201);
  });

  it('N concurrent creates with one externalId give exactly one 201 and N-1 409', async () => {
    h = createHarness();
    const n = 50;
    const results = await Promise.all(
      Array.from({ length: n }, () => h.createPayment({ amount: '10', currency: 'USD', externalId: 'race' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(n - 1);
    const list = await h.request('GET', '/v1/payments?externalId=race');
    expect(list.body.data).toHaveLength(1);
  });
});

describe('GET and DELETE /v1/payments/{id}', () => {
  it('retrieves the full view with every key present', async () => {
    h = createHarness();
    const created = await h.createPayment();
    const res = await h.request('GET', `/v1/payments/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(RETRIEVE_KEYS);
    expect(res.body.updatedAt).toBe('2026-11-21T10:00:00.000Z');
  });

  it("is 404 for unknown ids and for another merchant's payment", async () => {
    h = createHarness();
    const created = await h.createPayment();
    const other = await h.request('POST', '/control/v1/merchants', { body: {} });
    const key = other.body.apiKey.key;
    for (const [method, path] of [
      ['GET', `/v1/payments/${created.body.id}`],
      ['DELETE', `/v1/payments/${created.body.id}`],
      ['GET', '/v1/payments/nope'],
    ] as const) {
      const res = await h.request(method, path, { key: path.endsWith('nope') ? undefined : key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Payment not found', error: 'Not Found' });
    }
  });

  it('cancels an ACTIVE payment and emits payment.cancelled; 400 afterwards', async () => {
    h = createHarness();
    const created = await h.createPayment({ amount: '10', currency: 'USD', externalId: 'c1' });
    await h.sim.clock.setTime(TEST_START + 1000);
    const res = await h.request('DELETE', `/v1/payments/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CANCELLED', updatedAt: '2026-11-21T10:00:01.000Z' });
    expect(h.webhooks.emitted).toEqual([
      { merchantId: h.sim.defaultMerchant.id, type: 'payment.cancelled', paymentId: created.body.id, externalId: 'c1' },
    ]);
    const again = await h.request('DELETE', `/v1/payments/${created.body.id}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ statusCode: 400, message: 'Payment is not ACTIVE (status: CANCELLED)', error: 'Bad Request' });
    // The expiry timer was cancelled with it: nothing fires later.
    await h.sim.clock.advance(2 * 3_600_000);
    expect(h.webhooks.types()).toEqual(['payment.cancelled']);
  });

  it('refuses to cancel a PROCESSING payment', async () => {
    h = createHarness();
    const created = await h.createPayment();
    await h.request('POST', `/control/v1/payments/${created.body.id}/submit`, { body: { chainId: 137, token: 'USDT' } });
    const res = await h.request('DELETE', `/v1/payments/${created.body.id}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Payment is not ACTIVE (status: PROCESSING)');
  });
});

describe('expiry on the virtual clock', () => {
  it('moves ACTIVE to EXPIRED exactly at expiresAt and emits payment.expired', async () => {
    h = createHarness();
    const created = await h.createPayment({ amount: '10', currency: 'USD', expiresAt: new Date(TEST_START + 20 * 60_000).toISOString() });
    await h.sim.clock.advance(20 * 60_000 - 1);
    expect((await h.request('GET', `/v1/payments/${created.body.id}`)).body.status).toBe('ACTIVE');
    const advanced = await h.request('POST', '/control/v1/clock/advance', { body: { ms: 1 } });
    expect(advanced.body).toEqual({ now: '2026-11-21T10:20:00.000Z', firedTimers: 1 });
    const res = await h.request('GET', `/v1/payments/${created.body.id}`);
    expect(res.body).toMatchObject({ status: 'EXPIRED', updatedAt: '2026-11-21T10:20:00.000Z' });
    expect(h.webhooks.types()).toEqual(['payment.expired']);
  });

  it('does not expire a PROCESSING payment', async () => {
    h = createHarness();
    const created = await h.createPayment();
    await h.request('POST', `/control/v1/payments/${created.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    await h.sim.clock.advance(48 * 3_600_000);
    expect((await h.request('GET', `/v1/payments/${created.body.id}`)).body.status).toBe('PROCESSING');
  });
});

describe('GET /v1/payments', () => {
  it('lists newest first with cursor, limit, hasMore and nextCursor', async () => {
    h = createHarness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await h.createPayment()).body.id);
      await h.sim.clock.advance(1000);
    }
    const first = await h.request('GET', '/v1/payments?limit=2');
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: ids[3] });
    const last = await h.request('GET', `/v1/payments?limit=3&cursor=${ids[3]}`);
    expect(last.body).toEqual({ data: expect.any(Array), hasMore: false, nextCursor: null });
    expect(last.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await h.request('GET', '/v1/payments')).body.data).toHaveLength(5);
  });

  it('filters by status and externalId', async () => {
    h = createHarness();
    const a = await h.createPayment({ amount: '10', currency: 'USD', externalId: 'a' });
    await h.createPayment({ amount: '10', currency: 'USD', externalId: 'b' });
    await h.request('DELETE', `/v1/payments/${a.body.id}`);
    expect((await h.request('GET', '/v1/payments?status=CANCELLED')).body.data.map((p: { externalId: string }) => p.externalId)).toEqual([
      'a',
    ]);
    expect((await h.request('GET', '/v1/payments?externalId=b')).body.data.map((p: { externalId: string }) => p.externalId)).toEqual(['b']);
    expect((await h.request('GET', '/v1/payments?status=ACTIVE&externalId=a')).body.data).toEqual([]);
  });

  it.each([
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['limit=abc', ['limit']],
    ['limit=1.5', ['limit']],
    ['limit=-1', ['limit']],
    ['limit=1&limit=2', ['limit']],
    ['status=done', ['status']],
    ['cursor=unknown', ['cursor']],
    ['externalId=a%20b', ['externalId']],
  ])('rejects %s with a 400 at %j', async (query, path) => {
    h = createHarness();
    const res = await h.request('GET', `/v1/payments?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed', errors: [{ path }] });
  });

  it("rejects another merchant's payment id as cursor", async () => {
    h = createHarness();
    const other = await h.request('POST', '/control/v1/merchants', { body: {} });
    const foreign = await h.createPayment(undefined, other.body.apiKey.key);
    const res = await h.request('GET', `/v1/payments?cursor=${foreign.body.id}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: ['cursor'], message: expect.any(String) }]);
    expect((await h.request('GET', '/v1/payments')).body.data).toEqual([]);
  });

  it('a walk sees every payment exactly once while others are created during it', async () => {
    h = createHarness();
    const original = new Set<string>();
    for (let i = 0; i < 23; i += 1) {
      original.add((await h.createPayment()).body.id);
      if (i % 4 === 0) await h.sim.clock.advance(1); // some share a timestamp, some do not
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; nextCursor: string | null } } = await h.request(
        'GET',
        `/v1/payments?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((p) => p.id));
      cursor = page.body.nextCursor;
      await h.createPayment(); // interleaved creates, same and later timestamps
      await h.createPayment();
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of original) expect(seen).toContain(id);
  });
});
