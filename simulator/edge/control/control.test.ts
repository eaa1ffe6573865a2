import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, SELLER_A, SELLER_B, TEST_START } from '../../test-support/harness.ts';

let h: Harness;
afterEach(async () => h?.sim.close());

const submit = (id: string, body: unknown) => h.request('POST', `/control/v1/payments/${id}/submit`, { body, key: null });

describe('clock', () => {
  it('reads, advances (firing timers) and sets forward only', async () => {
    h = createHarness();
    expect((await h.request('GET', '/control/v1/clock')).body).toEqual({ now: '2026-11-21T10:00:00.000Z', offsetMs: TEST_START });
    await h.createPayment();
    await h.createPayment();
    const advanced = await h.request('POST', '/control/v1/clock/advance', { body: { ms: 3_600_000 } });
    expect(advanced.body).toEqual({ now: '2026-11-21T11:00:00.000Z', firedTimers: 2 });
    expect(h.webhooks.types()).toEqual(['payment.expired', 'payment.expired']);
    const set = await h.request('POST', '/control/v1/clock/set', { body: { now: '2026-11-22T00:00:00Z' } });
    expect(set.body).toEqual({ now: '2026-11-22T00:00:00.000Z', firedTimers: 0 });
    const back = await h.request('POST', '/control/v1/clock/set', { body: { now: '2026-11-21T00:00:00Z' } });
    expect(back.body).toEqual({ statusCode: 400, message: 'The virtual clock only moves forward', error: 'Bad Request' });
    for (const body of [{ ms: -1 }, { ms: 1.5 }, { ms: '5' }, {}, { ms: 1, x: 1 }]) {
      expect((await h.request('POST', '/control/v1/clock/advance', { body })).status).toBe(400);
    }
  });

  it('advance fires due retries without waiting for their attempts; the late ones catch up on schedule', async () => {
    const received: string[] = [];
    // Attempts after the first hang until released: a receiver that has not answered yet.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    h = createHarness();
    await h.sim.close();
    // A real webhook service whose fetch records deliveries and answers 500 (so retries are scheduled).
    const { createWebhookService } = await import('../../core/webhooks/index.ts');
    const { createSimulator } = await import('../../runtime/app.ts');
    const { VirtualClock } = await import('../../core/clock/virtual-clock.ts');
    const clock = new VirtualClock({ wallNow: () => 0, offsetMs: TEST_START });
    const webhooks = createWebhookService({
      clock,
      fetch: (async (_url: string, init: { body: string }) => {
        received.push(JSON.parse(init.body).event);
        if (received.length > 1) await released;
        return new Response('no', { status: 500 });
      }) as never,
    });
    const sim = createSimulator({ clock, webhooks, defaultApiKey: 'pk_test12345678' });
    const auth = { authorization: 'Bearer pk_test12345678', 'content-type': 'application/json' };
    await sim.app.request('/v1/webhooks', { method: 'POST', headers: auth, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }) });
    const created = await (
      await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body: JSON.stringify({ amount: '10', currency: 'USD' }) })
    ).json();
    await sim.app.request(`/control/v1/payments/${(created as { id: string }).id}/submit`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ chainId: 1, token: 'USDC' }),
    });
    await webhooks.idle();
    expect(received).toEqual(['payment.processing']);
    const res = await sim.app.request('/control/v1/clock/advance', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ms: 35 * 3_600_000 }),
    });
    // The advance answered while attempt 2 was still waiting on its receiver.
    expect(await res.json()).toMatchObject({ firedTimers: 1 });
    expect(received).toHaveLength(2);
    release();
    await webhooks.idle();
    expect(received).toEqual(Array(7).fill('payment.processing'));
    // Each late attempt carries its scheduled virtual instant, not the time it caught up at.
    const attempts = webhooks.deliveries(sim.defaultMerchant.id)[0]!.attempts;
    expect(attempts.map((a) => (Date.parse(a.attemptedAt) - Date.parse(attempts[0]!.attemptedAt)) / 60_000)).toEqual([
      0, 1, 6, 36, 156, 636, 2076,
    ]);
    await sim.close();
  });
});

describe('customer actions', () => {
  it('submit locks chain, token, rate and token amounts; confirm settles; every step emits its event', async () => {
    h = createHarness();
    await h.request('PUT', '/control/v1/exchange-rates', { body: { rates: { EUR: '1.08' } } });
    const created = await h.createPayment({
      amount: '100',
      currency: 'EUR',
      externalId: 'x1',
      sellers: [
        { address: SELLER_A, amount: '30' },
        { address: SELLER_B, amount: '20' },
      ],
    });
    expect(created.body).toMatchObject({ serviceFee: '0.50', merchantFee: '49.75', sellers: [{ amount: '29.85' }, { amount: '19.90' }] });
    await h.sim.clock.advance(60_000);
    const processing = await submit(created.body.id, { chainId: 42161, token: 'USDT' });
    expect(processing.status).toBe(200);
    expect(processing.body).toMatchObject({
      status: 'PROCESSING',
      chainId: 42161,
      token: 'USDT',
      exchangeRate: '1.080000',
      amountToken: '108.000000',
      serviceFeeToken: '0.540000',
      merchantFeeToken: '53.730000',
      txHash: null,
      paidAt: null,
      updatedAt: '2026-11-21T10:01:00.000Z',
    });
    await h.sim.clock.advance(60_000);
    const done = await h.request('POST', `/control/v1/payments/${created.body.id}/confirm`, { key: null });
    expect(done.body).toMatchObject({ status: 'SUCCESSFUL', paidAt: '2026-11-21T10:02:00.000Z', gasActual: '0.540000' });
    expect(done.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(h.webhooks.emitted.map((e) => [e.type, e.paymentId, e.externalId])).toEqual([
      ['payment.processing', created.body.id, 'x1'],
      ['payment.completed', created.body.id, 'x1'],
    ]);
    // The ledger has the settlement with its transfers.
    const ledger = await h.request('GET', '/v1/transactions');
    expect(ledger.body.data).toHaveLength(1);
    expect(ledger.body.data[0]).toMatchObject({
      paymentId: created.body.id,
      chainId: 42161,
      token: 'USDT',
      amountToken: '108.000000',
      transfers: [
        { role: 'merchant', address: h.sim.defaultMerchant.walletAddress, amountToken: '53.730000' },
        { role: 'seller', address: SELLER_A, amountToken: '32.238000' },
        { role: 'seller', address: SELLER_B, amountToken: '21.492000' },
        { role: 'service', amountToken: '0.540000' },
      ],
    });
  });

  it('pay = submit + confirm; fail sets the error object', async () => {
    h = createHarness();
    const a = await h.createPayment();
    const paid = await h.request('POST', `/control/v1/payments/${a.body.id}/pay`, { body: { chainId: 56, token: 'USDT' } });
    expect(paid.body).toMatchObject({ status: 'SUCCESSFUL', chainId: 56, token: 'USDT', gasActual: '0.108000' });
    const b = await h.createPayment();
    await submit(b.body.id, { chainId: 1, token: 'USDC' });
    const failed = await h.request('POST', `/control/v1/payments/${b.body.id}/fail`, {
      body: { source: 'bundler', message: "AA21 didn't pay prefund" },
    });
    expect(failed.body).toMatchObject({
      status: 'FAILED',
      error: { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: "AA21 didn't pay prefund" },
    });
    const c = await h.createPayment();
    await submit(c.body.id, { chainId: 1, token: 'USDC' });
    const reverted = await h.request('POST', `/control/v1/payments/${c.body.id}/fail`, { key: null });
    expect(reverted.body.error).toEqual({ code: 'TRANSACTION_REVERTED', source: 'chain', message: 'The transaction reverted on-chain' });
    expect(h.webhooks.types()).toEqual([
      'payment.processing',
      'payment.completed',
      'payment.processing',
      'payment.failed',
      'payment.processing',
      'payment.failed',
    ]);
  });

  it('refuses: 409 from the wrong state, 400 for a pair not allowed or after expiry, 404 unknown', async () => {
    h = createHarness();
    const p = await h.createPayment({ amount: '10', currency: 'USD', acceptedChains: [8453], acceptedTokens: ['USDC'] });
    expect((await h.request('POST', `/control/v1/payments/${p.body.id}/confirm`)).status).toBe(409);
    expect((await h.request('POST', `/control/v1/payments/${p.body.id}/fail`)).status).toBe(409);
    expect((await submit(p.body.id, { chainId: 1, token: 'USDC' })).status).toBe(400);
    expect((await submit(p.body.id, { chainId: 8453, token: 'USDT' })).status).toBe(400);
    expect((await submit(p.body.id, { chainId: 999, token: 'USDC' })).body.errors).toEqual([
      { path: ['chainId'], message: expect.any(String) },
    ]);
    expect((await submit('nope', { chainId: 8453, token: 'USDC' })).status).toBe(404);
    expect((await submit(p.body.id, { chainId: 8453, token: 'USDC' })).status).toBe(200);
    expect((await submit(p.body.id, { chainId: 8453, token: 'USDC' })).status).toBe(409);
    expect(h.webhooks.types()).toEqual(['payment.processing']);
  });

  it('a submit at expiresAt is refused and the payment expires', async () => {
    const clockless = createHarness();
    h = clockless;
    const p = await h.createPayment({ amount: '10', currency: 'USD', expiresAt: '2026-11-21T10:15:00.000Z' });
    // Move the clock without firing timers, as a real-time drift would.
    (h.sim.clock as unknown as { offset: number }).offset = Date.parse('2026-11-21T10:15:00.000Z');
    const res = await submit(p.body.id, { chainId: 1, token: 'USDC' });
    expect(res.body).toEqual({ statusCode: 400, message: 'Payment has expired', error: 'Bad Request' });
    expect((await h.request('GET', `/v1/payments/${p.body.id}`)).body.status).toBe('EXPIRED');
    expect(h.webhooks.types()).toEqual(['payment.expired']);
  });
});

describe('dashboard', () => {
  it('dashboard create emits payment.created and answers the retrieve view', async () => {
    h = createHarness();
    const res = await h.request('POST', '/control/v1/payments', { body: { amount: '100.5', currency: 'USD', externalId: 'dash' } });
    expect(res.status).toBe(201);
    expect(res.body).toHaveProperty('updatedAt');
    expect(h.webhooks.emitted).toEqual([
      { merchantId: h.sim.defaultMerchant.id, type: 'payment.created', paymentId: res.body.id, externalId: 'dash' },
    ]);
    expect((await h.request('POST', '/control/v1/payments', { body: { amount: '1', currency: 'USD' }, key: null })).status).toBe(401);
    expect((await h.request('POST', '/control/v1/payments', { body: { amount: '1', currency: 'USD', externalId: 'dash' } })).status).toBe(
      409,
    );
  });

  it('creates merchants with a working key', async () => {
    h = createHarness();
    const res = await h.request('POST', '/control/v1/merchants', { body: { name: 'Shop' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.merchant)).toEqual(['id', 'name', 'walletAddress', 'redirectUrl', 'createdAt']);
    expect(res.body.merchant.redirectUrl).toBeNull();
    expect(res.body.apiKey).toMatchObject({ status: 'active', key: expect.stringMatching(/^pk_/) });
    expect((await h.createPayment(undefined, res.body.apiKey.key)).status).toBe(201);
    expect((await h.request('POST', '/control/v1/merchants', { key: null })).status).toBe(201);
    expect((await h.request('POST', '/control/v1/merchants', { body: { name: 5 } })).status).toBe(400);
  });

  it("changes the calling merchant's settings: wallet and redirect URL", async () => {
    h = createHarness();
    const wallet = '0x8ba1f109551bd432803012645ac136ddd64dba72';
    const res = await h.request('PUT', '/control/v1/merchant', {
      body: { walletAddress: wallet, redirectUrl: 'https://shop.example/thanks?o=1' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: h.sim.defaultMerchant.id, walletAddress: wallet, redirectUrl: 'https://shop.example/thanks?o=1' });
    expect(h.sim.merchants.get(h.sim.defaultMerchant.id)?.redirectUrl).toBe('https://shop.example/thanks?o=1');
    // Left-out fields keep their value; null removes the redirect.
    const cleared = await h.request('PUT', '/control/v1/merchant', { body: { redirectUrl: null } });
    expect(cleared.body).toMatchObject({ walletAddress: wallet, redirectUrl: null });
    const bad = await h.request('PUT', '/control/v1/merchant', {
      body: { redirectUrl: 'javascript:alert(1)', walletAddress: '0x12', colour: 'red' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string[] }) => e.path).sort()).toEqual([['colour'], ['redirectUrl'], ['walletAddress']]);
    expect((await h.request('PUT', '/control/v1/merchant', { body: {} })).status).toBe(400);
    expect((await h.request('PUT', '/control/v1/merchant', { body: { redirectUrl: null }, key: null })).status).toBe(401);
  });

  it('reads and updates exchange rates with validation', async () => {
    h = createHarness();
    const read = await h.request('GET', '/control/v1/exchange-rates');
    expect(Object.keys(read.body.rates)).toHaveLength(14);
    expect(read.body.rates.USD).toBe('1.000000');
    const bad = await h.request('PUT', '/control/v1/exchange-rates', {
      body: { rates: { XXX: '1', EUR: '0', GBP: 1.2, JPY: '0.0000001' } },
    });
    expect(bad.body.errors.map((e: { path: string[] }) => e.path)).toEqual([
      ['rates', 'XXX'],
      ['rates', 'EUR'],
      ['rates', 'GBP'],
      ['rates', 'JPY'],
    ]);
    expect((await h.request('GET', '/control/v1/exchange-rates')).body.rates.EUR).toBe('1.080000');
  });

  it('health lists the chains', async () => {
    h = createHarness();
    const res = await h.request('GET', '/control/v1/health');
    expect(res.body.status).toBe('ok');
    expect(res.body.chains.map((c: { chainId: number }) => c.chainId)).toEqual([1, 42161, 8453, 137, 56]);
  });

  it('is absent when disabled', async () => {
    h = createHarness({ control: false });
    expect((await h.request('GET', '/control/v1/clock')).status).toBe(404);
  });
});

describe('payouts', () => {
  const create = (body: unknown = { amount: '50', currency: 'USD', recipientAddress: SELLER_A, externalId: 'po-1' }) =>
    h.request('POST', '/control/v1/payouts', { body });

  it('runs the lifecycle with payout.* events and is readable at /v1/payouts/{id}', async () => {
    h = createHarness();
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'ACTIVE',
      amount: '50',
      recipientAddress: SELLER_A,
      externalId: 'po-1',
      expiresAt: '2026-11-21T11:00:00.000Z',
    });
    const id = created.body.id as string;
    const processing = await h.request('POST', `/control/v1/payouts/${id}/submit`, { body: { chainId: 42161, token: 'USDT' } });
    expect(processing.body).toMatchObject({
      status: 'PROCESSING',
      chainId: 42161,
      token: 'USDT',
      exchangeRate: '1.000000',
      amountToken: '50.000000',
    });
    const done = await h.request('POST', `/control/v1/payouts/${id}/confirm`);
    expect(done.body).toMatchObject({
      status: 'SUCCESSFUL',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      paidAt: '2026-11-21T10:00:00.000Z',
    });
    expect((await h.request('POST', `/control/v1/payouts/${id}/cancel`)).status).toBe(409);
    const read = await h.request('GET', `/v1/payouts/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(done.body);
    expect(h.webhooks.emitted.map((e) => [e.type, e.payoutId, e.externalId])).toEqual([
      ['payout.created', id, 'po-1'],
      ['payout.processing', id, 'po-1'],
      ['payout.completed', id, 'po-1'],
    ]);
  });

  it('fails, cancels and expires with their events; other merchants get 404', async () => {
    h = createHarness();
    const a = (await create({ amount: '5', currency: 'USD', recipientAddress: SELLER_B })).body.id;
    await h.request('POST', `/control/v1/payouts/${a}/submit`, { body: { chainId: 1, token: 'USDC' } });
    expect((await h.request('POST', `/control/v1/payouts/${a}/fail`, { body: { message: 'out of gas' } })).body).toMatchObject({
      status: 'FAILED',
      error: { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'out of gas' },
    });
    const b = (await create({ amount: '5', currency: 'USD', recipientAddress: SELLER_B })).body.id;
    expect((await h.request('POST', `/control/v1/payouts/${b}/cancel`)).body.status).toBe('CANCELLED');
    const c = (await create({ amount: '5', currency: 'USD', recipientAddress: SELLER_B })).body.id;
    await h.request('POST', '/control/v1/clock/advance', { body: { ms: 3_600_000 } });
    expect((await h.request('GET', `/v1/payouts/${c}`)).body.status).toBe('EXPIRED');
    expect(h.webhooks.types().filter((t) => t !== 'payout.created' && t !== 'payout.processing')).toEqual([
      'payout.failed',
      'payout.cancelled',
      'payout.expired',
    ]);
    const other = await h.request('POST', '/control/v1/merchants', { body: {} });
    expect((await h.request('GET', `/v1/payouts/${c}`, { key: other.body.apiKey.key })).status).toBe(404);
    expect((await h.request('GET', '/v1/payouts/nope')).body).toEqual({ statusCode: 404, message: 'Payout not found', error: 'Not Found' });
  });

  it('validates payout creation', async () => {
    h = createHarness();
    const res = await create({ amount: '0.5', currency: 'USD', recipientAddress: '0xabc', extra: 1 });
    expect(res.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['extra'], ['amount'], ['recipientAddress']]);
    expect(
      (await h.request('POST', '/control/v1/payouts', { body: { amount: '5', currency: 'USD', recipientAddress: SELLER_A }, key: null }))
        .status,
    ).toBe(401);
  });
});
