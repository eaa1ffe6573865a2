// Every endpoint of the merchant API and the control API, success and error paths, with EVERY
// response validated against openapi.yaml / control-api.yaml by the contract validator; and every
// operation of both documents must have been exercised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract, type Violation } from '@stablepay/contract';
import { VirtualClock } from '../core/clock/virtual-clock.ts';
import { createHarness, type Harness, SELLER_A, SELLER_B, TEST_START, type TestResponse } from '../test-support/harness.ts';
import { createWebhookService } from '../core/webhooks/index.ts';

let service: Contract;
let control: Contract;
let h: Harness;
const failures: { call: string; violations: Violation[] }[] = [];
const exercised = { service: new Map<string, Set<number>>(), control: new Map<string, Set<number>>() };
let checked = 0;

beforeAll(async () => {
  [service, control] = await Promise.all([loadContract('service'), loadContract('control')]);
  const clock = new VirtualClock({ wallNow: () => 0, offsetMs: TEST_START });
  const webhooks = createWebhookService({ clock, fetch: (async () => new Response('ok', { status: 200 })) as never });
  // The rebuild itself is server.ts's (simulator/edge/control/reset.test.ts); here only the route's shapes.
  const reset = async (apiKey: string | undefined) => ({
    now: h.sim.clock.nowIso(),
    merchantId: h.sim.defaultMerchant.id,
    apiKey: apiKey ?? h.sim.defaultApiKey,
  });
  h = createHarness({ clock, webhooks, reset });
});
afterAll(async () => h?.sim.close());

type Call = Parameters<Harness['request']>[2];

function headerObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

/** Send, validate the response against the right document, and return it. */
async function call(method: string, path: string, options: Call = {}): Promise<TestResponse> {
  const res = await h.request(method, path, options);
  const isControl = path.startsWith('/control/v1');
  const contract = isControl ? control : service;
  const relative = isControl ? path.slice('/control/v1'.length) : path;
  const headers = headerObject(res.headers);
  const violations = contract.validateResponse({
    method,
    path: relative,
    status: res.status,
    headers,
    body: res.body ?? (res.text || undefined),
  });
  checked += 1;
  const op = contract.findOperation(method, relative);
  if (op) {
    const seen = exercised[isControl ? 'control' : 'service'];
    if (!seen.has(op.operationId)) seen.set(op.operationId, new Set());
    seen.get(op.operationId)?.add(res.status);
  }
  if (violations.length > 0) failures.push({ call: `${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`, violations });
  return res;
}

const create = (body: unknown = { amount: '100.5', currency: 'USD' }, options: Call = {}) =>
  call('POST', '/v1/payments', { body, ...options });
const ctl = (method: string, path: string, options: Call = {}) => call(method, `/control/v1${path}`, { key: null, ...options });

describe('responses conform to the contract', () => {
  it('payments', async () => {
    const minimal = await create();
    const full = await create({
      amount: '250.00',
      currency: 'EUR',
      title: 'Order 1042',
      externalId: 'order-1042',
      acceptedChains: [8453, 137],
      acceptedTokens: ['USDC'],
      expiresAt: '2026-11-22T10:00:00.000Z',
      sellers: [
        { address: SELLER_A, amount: '50.00' },
        { address: SELLER_B, amount: '30' },
      ],
      merchantAmount: '170',
    });
    await create({ amount: '15000', currency: 'JPY', externalId: 'inv_2026.11-7' });
    await create({ amount: '1.001', currency: 'usd', extra: 1, sellers: [] });
    await call('POST', '/v1/payments', { raw: '{oops', headers: { 'content-type': 'application/json' } });
    await call('POST', '/v1/payments', { raw: '{}', headers: { 'content-type': 'text/plain' } });
    await create(undefined, { key: null });
    await create(undefined, { key: 'pk_doesnotexist00' });
    await create({ amount: '10', currency: 'EUR', externalId: 'order-1042' });

    await call('GET', '/v1/payments');
    await call('GET', `/v1/payments?limit=1&cursor=${full.body.id}`);
    await call('GET', '/v1/payments?status=ACTIVE&externalId=order-1042');
    await call('GET', '/v1/payments?limit=0');
    await call('GET', '/v1/payments?cursor=nope');
    await call('GET', '/v1/payments', { key: null });

    // One payment in every state, each retrieved.
    const processing = await create({ amount: '20', currency: 'USD' });
    await ctl('POST', `/payments/${processing.body.id}/submit`, { body: { chainId: 8453, token: 'USDC' } });
    const successful = await create({ amount: '30', currency: 'GBP', sellers: [{ address: SELLER_A, amount: '10' }] });
    await ctl('POST', `/payments/${successful.body.id}/pay`, { body: { chainId: 137, token: 'USDT' } });
    const failed = await create({ amount: '40', currency: 'USD' });
    await ctl('POST', `/payments/${failed.body.id}/submit`, { body: { chainId: 1, token: 'USDT' } });
    await ctl('POST', `/payments/${failed.body.id}/fail`, {
      body: { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: "AA21 didn't pay prefund" },
    });
    const cancelled = await create({ amount: '50', currency: 'USD' });
    await call('DELETE', `/v1/payments/${cancelled.body.id}`);
    await call('DELETE', `/v1/payments/${cancelled.body.id}`);
    await call('DELETE', '/v1/payments/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b');
    await call('DELETE', `/v1/payments/${minimal.body.id}`, { key: null });
    const expiring = await create({ amount: '60', currency: 'USD', expiresAt: '2026-11-21T10:15:00.000Z' });
    await ctl('POST', '/clock/advance', { body: { ms: 15 * 60_000 } });
    for (const p of [minimal, full, processing, successful, failed, cancelled, expiring]) await call('GET', `/v1/payments/${p.body.id}`);
    await call('GET', '/v1/payments/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b');
    await call('GET', `/v1/payments/${minimal.body.id}`, { key: 'sk_wrong' });
    await call('GET', '/v1/payments?limit=100');
  });

  it('webhooks', async () => {
    await call('GET', '/v1/webhooks');
    await call('PUT', '/v1/webhooks', { body: { enabled: false } });
    await call('POST', '/v1/webhooks/regenerate-secret');
    await call('POST', '/v1/webhooks/test');
    await call('POST', '/v1/webhooks', { body: { url: 'ftp://nope' } });
    await call('POST', '/v1/webhooks', { body: { url: 'https://merchant.example.test/hooks' } });
    await call('POST', '/v1/webhooks', { body: { url: 'https://merchant.example.test/hooks' } });
    await call('GET', '/v1/webhooks');
    await call('PUT', '/v1/webhooks', { body: { url: 'https://merchant.example.test/v2' } });
    await call('PUT', '/v1/webhooks', { body: {} });
    await call('POST', '/v1/webhooks/regenerate-secret');
    await call('POST', '/v1/webhooks/test');
    const p = await create({ amount: '10', currency: 'USD', externalId: 'wh-1' });
    await ctl('POST', `/payments/${p.body.id}/pay`, { body: { chainId: 8453, token: 'USDC' } });
    await h.sim.webhooks.idle();
    await call('GET', '/v1/webhooks/deliveries');
    await call('GET', `/v1/webhooks/deliveries?limit=1&event=payment.completed&paymentId=${p.body.id}`);
    await call('GET', '/v1/webhooks/deliveries?limit=1000');
    await call('GET', '/v1/webhooks', { key: null });
  });

  it('api keys', async () => {
    await call('GET', '/v1/auth/api-keys');
    const made = await call('POST', '/v1/auth/api-keys', {
      body: { name: 'ci', ipWhitelist: ['10.0.0.0/8', '2001:db8::/32'], expiresInDays: 90 },
    });
    await call('POST', '/v1/auth/api-keys', { body: { expiresInDays: null } });
    await call('POST', '/v1/auth/api-keys', { body: { expiresInDays: 7 } });
    await call('GET', '/v1/auth/api-keys?limit=1');
    await call('GET', '/v1/auth/api-keys?cursor=nope');
    await call('DELETE', `/v1/auth/api-keys/${made.body.id}`);
    await call('DELETE', '/v1/auth/api-keys/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b');
    for (let i = 0; i < 9; i += 1) await call('POST', '/v1/auth/api-keys', { body: {} }); // reaches 10 active -> 409
    await call('GET', '/v1/auth/api-keys', { key: null });
  });

  it('analytics, export, transactions, payouts, web3', async () => {
    await call('GET', '/v1/analytics');
    await call('GET', '/v1/analytics?from=2026-11-01T00:00:00Z&to=2026-11-30T00:00:00Z');
    await call('GET', '/v1/analytics?from=nope');
    await call('GET', '/v1/analytics/export');
    await call('GET', '/v1/analytics/export', { key: null });
    const page = await call('GET', '/v1/transactions?limit=1');
    await call('GET', `/v1/transactions?cursor=${page.body.nextCursor ?? page.body.data[0].id}`);
    await call('GET', '/v1/transactions?limit=abc');
    await call('GET', '/v1/transactions', { key: null });

    const payout = await ctl('POST', '/payouts', {
      key: undefined,
      body: { amount: '50', currency: 'USD', recipientAddress: SELLER_A, externalId: 'po-1' },
    });
    await call('GET', `/v1/payouts/${payout.body.id}`);
    await ctl('POST', `/payouts/${payout.body.id}/submit`, { body: { chainId: 42161, token: 'USDT' } });
    await call('GET', `/v1/payouts/${payout.body.id}`);
    await ctl('POST', `/payouts/${payout.body.id}/confirm`);
    await call('GET', `/v1/payouts/${payout.body.id}`);
    const failing = await ctl('POST', '/payouts', { key: undefined, body: { amount: '5', currency: 'EUR', recipientAddress: SELLER_B } });
    await ctl('POST', `/payouts/${failing.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    await ctl('POST', `/payouts/${failing.body.id}/fail`, {
      body: { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'execution reverted' },
    });
    await call('GET', `/v1/payouts/${failing.body.id}`);
    const cancelling = await ctl('POST', '/payouts', {
      key: undefined,
      body: { amount: '5', currency: 'USD', recipientAddress: SELLER_B },
    });
    await ctl('POST', `/payouts/${cancelling.body.id}/cancel`);
    await ctl('POST', `/payouts/${cancelling.body.id}/cancel`);
    await ctl('POST', `/payouts/${cancelling.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    await ctl('POST', `/payouts/${cancelling.body.id}/confirm`);
    await ctl('POST', `/payouts/${cancelling.body.id}/fail`);
    await ctl('POST', '/payouts/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b/confirm');
    await ctl('POST', '/payouts/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b/submit', { body: { chainId: 1, token: 'USDC' } });
    await ctl('POST', '/payouts/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b/fail');
    await ctl('POST', '/payouts/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b/cancel');
    await ctl('POST', `/payouts/${cancelling.body.id}/submit`, { body: { chainId: 1 } });
    await ctl('POST', `/payouts/${cancelling.body.id}/fail`, { body: { source: 'moon' } });
    await ctl('POST', '/payouts', { key: undefined, body: { amount: 'x' } });
    await ctl('POST', '/payouts', { body: { amount: '5', currency: 'USD', recipientAddress: SELLER_B } });
    await call('GET', '/v1/payouts/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b');
    await call('GET', `/v1/payouts/${payout.body.id}`, { key: null });

    const rpc = (chain: string, raw: string, key?: null) =>
      call('POST', `/v1/web3/${chain}`, { raw, headers: { 'content-type': 'application/json' }, ...(key === null ? { key } : {}) });
    await rpc('8453', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}');
    await rpc('8453', '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"x":1}]');
    await rpc('1', '{oops');
    await rpc('5', '{}');
    await rpc('1', '{}', null);
  });

  it('control API', async () => {
    await ctl('GET', '/clock');
    await ctl('POST', '/reset');
    await ctl('POST', '/reset', { body: { apiKey: 'pk_kept12345678' } });
    await ctl('POST', '/reset', { body: { apiKey: 'nope' } });
    await ctl('POST', '/clock/advance', { body: { ms: 1000 } });
    await ctl('POST', '/clock/advance', { body: { ms: -5 } });
    await ctl('POST', '/clock/set', { body: { now: '2026-11-21T12:00:00.000Z' } });
    await ctl('POST', '/clock/set', { body: { now: '2026-01-01T00:00:00.000Z' } });
    await ctl('GET', '/health');
    const dash = await ctl('POST', '/payments', { key: undefined, body: { amount: '100.5', currency: 'USD', externalId: 'dash-1' } });
    await ctl('POST', '/payments', { key: undefined, body: { amount: '100.5', currency: 'USD', externalId: 'dash-1' } });
    await ctl('POST', '/payments', { key: undefined, body: { amount: 'x', currency: 'USD' } });
    await ctl('POST', '/payments', { body: { amount: '1', currency: 'USD' } });
    const narrow = await create({ amount: '10', currency: 'USD', acceptedChains: [8453], acceptedTokens: ['USDC'] });
    await ctl('POST', `/payments/${narrow.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    await ctl('POST', `/payments/${narrow.body.id}/submit`, { body: { chainId: 8453, token: 'BTC' } });
    await ctl('POST', `/payments/${narrow.body.id}/confirm`);
    await ctl('POST', `/payments/${narrow.body.id}/fail`);
    await ctl('POST', `/payments/${narrow.body.id}/pay`, { body: { chainId: 8453, token: 'USDC' } });
    await ctl('POST', `/payments/${narrow.body.id}/pay`, { body: { chainId: 8453, token: 'USDC' } });
    await ctl('POST', `/payments/${narrow.body.id}/submit`, { body: { chainId: 8453, token: 'USDC' } });
    await ctl('POST', `/payments/${dash.body.id}/submit`, { body: { chainId: 8453, token: 'USDC' } });
    await ctl('POST', `/payments/${dash.body.id}/fail`, { body: { source: 'nowhere' } });
    await ctl('POST', `/payments/${dash.body.id}/confirm`);
    await ctl('POST', `/payments/${dash.body.id}/pay`, { body: {} });
    for (const action of ['submit', 'confirm', 'fail', 'pay']) {
      await ctl('POST', `/payments/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b/${action}`, { body: { chainId: 1, token: 'USDC' } });
    }
    const merchant = await ctl('POST', '/merchants', { body: { name: 'Shop' } });
    await ctl('POST', '/merchants');
    await ctl('POST', '/merchants', { body: { name: 7 } });
    await ctl('POST', '/merchants', {
      body: { name: 'Shop 2', walletAddress: '0x8ba1f109551bd432803012645ac136ddd64dba72', redirectUrl: 'https://shop.example/thanks' },
    });
    // Test clocks, a merchant on one, the merchant's own clock, and a merchant reset.
    const testClock = await ctl('POST', '/clocks');
    await ctl('GET', `/clocks/${testClock.body.id}`);
    await ctl('GET', '/clocks/clk_000000000000000000000000');
    await ctl('POST', `/clocks/${testClock.body.id}/advance`, { body: { ms: 60_000 } });
    await ctl('POST', `/clocks/${testClock.body.id}/advance`, { body: { ms: 'soon' } });
    await ctl('POST', '/clocks/clk_000000000000000000000000/advance', { body: { ms: 1 } });
    await ctl('POST', `/clocks/${testClock.body.id}/set`, { body: { now: '2030-01-01T00:00:00.000Z' } });
    await ctl('POST', `/clocks/${testClock.body.id}/set`, { body: { now: '2020-01-01T00:00:00.000Z' } });
    await ctl('POST', '/clocks/clk_000000000000000000000000/set', { body: { now: '2030-01-01T00:00:00.000Z' } });
    const onTestClock = await ctl('POST', '/merchants', { body: { name: 'On a test clock', testClock: testClock.body.id } });
    await ctl('POST', '/merchants', { body: { testClock: 'clk_000000000000000000000000' } });
    await ctl('GET', '/clock', { key: onTestClock.body.apiKey.key });
    await ctl('POST', '/clock/advance', { key: merchant.body.apiKey.key, body: { ms: 1000 } });
    await ctl('POST', '/clock/set', { key: merchant.body.apiKey.key, body: { now: '2030-01-01T00:00:00.000Z' } });
    await ctl('POST', '/merchant/reset', { key: onTestClock.body.apiKey.key });
    await ctl('POST', '/merchant/reset', { key: 'pk_doesnotexist00' });
    await ctl('PUT', '/merchant', { key: merchant.body.apiKey.key, body: { redirectUrl: 'https://shop.example/thanks' } });
    await ctl('PUT', '/merchant', { key: merchant.body.apiKey.key, body: { redirectUrl: 'ftp://x' } });
    await ctl('PUT', '/merchant', { body: { redirectUrl: null }, key: null });
    await ctl('POST', '/api-keys', { key: merchant.body.apiKey.key, body: { expiresAt: '2020-01-01T00:00:00Z' } });
    await ctl('POST', '/api-keys', { key: merchant.body.apiKey.key, body: { expiresInDays: 0, ipWhitelist: ['127.0.0.1'] } });
    await ctl('POST', '/api-keys', { key: merchant.body.apiKey.key });
    await ctl('POST', '/api-keys', { key: merchant.body.apiKey.key, body: { expiresInDays: 1, expiresAt: '2030-01-01T00:00:00Z' } });
    await ctl('POST', '/api-keys', { body: {} });
    const secret = `whsec_${'ab'.repeat(32)}`;
    const shop = { key: merchant.body.apiKey.key as string };
    const listener = await ctl('POST', '/listeners', { ...shop, body: { url: 'http://127.0.0.1:9/hooks', secret, events: ['test'] } });
    await ctl('POST', '/listeners', { ...shop, body: { url: 'localhost:9', secret: 'whsec_short', events: [] } });
    await ctl('POST', '/listeners', { body: { url: 'http://127.0.0.1:9/hooks', secret } });
    await ctl('GET', '/listeners', shop);
    await ctl('GET', '/listeners');
    await ctl('POST', '/listeners/test', shop);
    await ctl('POST', '/listeners/test');
    await ctl('GET', `/listeners/${listener.body.id}`, shop);
    await ctl('GET', `/listeners/${listener.body.id}`);
    await ctl('DELETE', `/listeners/${listener.body.id}`, shop);
    await ctl('DELETE', `/listeners/${listener.body.id}`);
    await ctl('GET', `/listeners/${listener.body.id}`, shop);
    await ctl('DELETE', `/listeners/${listener.body.id}`, shop);
    await ctl('GET', '/exchange-rates');
    await ctl('PUT', '/exchange-rates', { body: { rates: { EUR: '1.090000' } } });
    await ctl('PUT', '/exchange-rates', { body: { rates: { EUR: '0' } } });
    await ctl('PUT', '/rate-limit', { body: { limit: 0, windowSeconds: 60 } });
    await ctl('PUT', '/rate-limit', { body: { limit: 2, windowSeconds: 60 } });
    // 429s on a few operations (a fresh window so the counts are known).
    await ctl('POST', '/clock/advance', { body: { ms: 60_000 } });
    for (let i = 0; i < 3; i += 1) await call('GET', '/v1/payments');
    await call('POST', '/v1/payments', { body: { amount: '1', currency: 'USD' } });
    await call('GET', '/v1/analytics');
    await ctl('PUT', '/rate-limit', { body: { limit: 6000, windowSeconds: 60 } });
  });

  it('the validator does reject a corrupted response (this check can fail)', async () => {
    const res = await h.request('POST', '/v1/payments', { body: { amount: '10', currency: 'USD' } });
    const headers = headerObject(res.headers);
    const { paymentUrl: _dropped, ...withoutUrl } = res.body;
    expect(
      service.validateResponse({ method: 'POST', path: '/v1/payments', status: 201, headers, body: withoutUrl }).length,
    ).toBeGreaterThan(0);
    expect(
      service.validateResponse({ method: 'POST', path: '/v1/payments', status: 201, headers, body: { ...res.body, serviceFee: 0.05 } })
        .length,
    ).toBeGreaterThan(0);
    const { 'x-ratelimit-limit': _limit, ...noLimit } = headers;
    expect(
      service.validateResponse({ method: 'POST', path: '/v1/payments', status: 201, headers: noLimit, body: res.body }).length,
    ).toBeGreaterThan(0);
    expect(service.validateResponse({ method: 'POST', path: '/v1/payments', status: 500, headers, body: res.body }).length).toBeGreaterThan(
      0,
    );
  });

  it('has no violations, and exercised every operation of both documents', () => {
    const report = failures
      .map((f) => `${f.call}\n${f.violations.map((v) => `  [${v.level}] ${v.kind} ${v.pointer ?? ''}: ${v.message}`).join('\n')}`)
      .join('\n\n');
    expect(report).toBe('');
    expect(checked).toBeGreaterThan(150);
    console.log(
      `contract: ${checked} responses validated; service operations ${exercised.service.size}/${service.operations.length}, control ${exercised.control.size}/${control.operations.length}`,
    );
    const missing = (c: Contract, seen: Map<string, Set<number>>) => c.operations.map((o) => o.operationId).filter((id) => !seen.has(id));
    expect(missing(service, exercised.service)).toEqual([]);
    expect(missing(control, exercised.control)).toEqual([]);
    const successes = (seen: Map<string, Set<number>>) =>
      [...seen].filter(([, statuses]) => ![...statuses].some((s) => s < 300)).map(([id]) => id);
    expect(successes(exercised.service)).toEqual([]);
    expect(successes(exercised.control)).toEqual([]);
  });
});
