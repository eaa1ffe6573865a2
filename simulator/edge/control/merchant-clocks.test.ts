// Worlds that do not touch each other: each merchant lives on its own clock (or on a test clock it was made on), so
// moving one merchant's time, a test clock or resetting one merchant leaves every other merchant's payments,
// expiry times, retries and timestamps where they were.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { createWebhookService } from '../../core/webhooks/index.ts';
import { createHarness, TEST_START, type Harness } from '../../test-support/harness.ts';

let h: Harness | undefined;
afterEach(async () => h?.sim.close());

/** A harness with the real webhook service; every delivered body is kept, in order, with its receiver's path. */
function harnessWithDeliveries(status = 200): {
  h: Harness;
  received: { path: string; body: { event: string; timestamp: string; data?: { paymentId: string } } }[];
} {
  const received: { path: string; body: { event: string; timestamp: string; data?: { paymentId: string } } }[] = [];
  const clock = new VirtualClock({ wallNow: () => 0, offsetMs: TEST_START });
  const fetch = (async (url: string, init: { body: string }) => {
    received.push({ path: new URL(url).pathname, body: JSON.parse(init.body) });
    return new Response('', { status });
  }) as never;
  const webhooks = createWebhookService({ clock, fetch });
  return { h: createHarness({ clock, webhooks }), received };
}

const DAY = 86_400_000;

describe('clocks of their own', () => {
  it("a test clock moved 37 days expires its merchants' payments and leaves the default merchant's ACTIVE, on wall time", async () => {
    const made = harnessWithDeliveries();
    h = made.h;
    const clock = await h.request('POST', '/control/v1/clocks', { key: null });
    expect(clock.status).toBe(201);
    const runMerchant = await h.request('POST', '/control/v1/merchants', { key: null, body: { name: 'run', testClock: clock.body.id } });
    const checkMerchant = await h.request('POST', '/control/v1/merchants', {
      key: null,
      body: { name: 'check', testClock: clock.body.id },
    });
    expect(runMerchant.body.merchant.testClock).toBe(clock.body.id);
    const runKey = runMerchant.body.apiKey.key as string;
    await h.request('POST', '/v1/webhooks', { key: runKey, body: { url: 'http://receiver.test/run' } });
    await h.request('POST', '/v1/webhooks', { body: { url: 'http://receiver.test/default' } });

    const mine = await h.createPayment();
    const theirs = await h.createPayment(undefined, runKey);
    const moved = await h.request('POST', `/control/v1/clocks/${clock.body.id}/advance`, { key: null, body: { ms: 37 * DAY } });
    expect(moved.body.now).toBe(new Date(TEST_START + 37 * DAY).toISOString());
    await h.sim.webhooks.idle();

    expect((await h.request('GET', `/v1/payments/${mine.body.id}`)).body.status).toBe('ACTIVE');
    expect((await h.request('GET', `/v1/payments/${theirs.body.id}`, { key: runKey })).body.status).toBe('EXPIRED');
    // The default merchant's clock, and the sandbox clock, did not move; the other merchant on the test clock did.
    expect((await h.request('GET', '/control/v1/clock')).body.now).toBe(new Date(TEST_START).toISOString());
    expect((await h.request('GET', '/control/v1/clock', { key: null })).body.now).toBe(new Date(TEST_START).toISOString());
    expect((await h.request('GET', '/control/v1/clock', { key: checkMerchant.body.apiKey.key })).body.now).toBe(moved.body.now);
    // New payments of the default merchant are created on wall time; the run merchant's a month ahead.
    expect((await h.createPayment()).body.createdAt).toBe(new Date(TEST_START).toISOString());
    expect((await h.createPayment(undefined, runKey)).body.createdAt).toBe(moved.body.now);
    // The expiry went to the run merchant's receiver, stamped at the payment's expiry on the test clock; nothing to the default one.
    expect(made.received.map((r) => [r.path, r.body.event])).toEqual([['/run', 'payment.expired']]);
    expect(made.received[0]?.body.timestamp).toBe(theirs.body.expiresAt);
  });

  it("a merchant's key moves that merchant's clock only; the sandbox clock moves everyone", async () => {
    h = createHarness();
    const other = await h.request('POST', '/control/v1/merchants', { key: null, body: { name: 'other' } });
    const otherKey = other.body.apiKey.key as string;
    const mine = await h.createPayment();
    const theirs = await h.createPayment(undefined, otherKey);
    const advanced = await h.request('POST', '/control/v1/clock/advance', { key: otherKey, body: { ms: 2 * 3_600_000 } });
    expect(advanced.body.firedTimers).toBe(1);
    expect((await h.request('GET', `/v1/payments/${theirs.body.id}`, { key: otherKey })).body.status).toBe('EXPIRED');
    expect((await h.request('GET', `/v1/payments/${mine.body.id}`)).body.status).toBe('ACTIVE');
    expect((await h.request('GET', '/control/v1/clock')).body.offsetMs).toBe(TEST_START);
    // The sandbox clock: every merchant's time moves with it.
    await h.request('POST', '/control/v1/clock/advance', { key: null, body: { ms: 2 * 3_600_000 } });
    expect((await h.request('GET', `/v1/payments/${mine.body.id}`)).body.status).toBe('EXPIRED');
    expect((await h.request('GET', '/control/v1/clock', { key: otherKey })).body.now).toBe(
      new Date(TEST_START + 4 * 3_600_000).toISOString(),
    );
  });

  it('retries wait on their merchant’s clock: another merchant’s advance sends none of them', async () => {
    const made = harnessWithDeliveries(500);
    h = made.h;
    const other = await h.request('POST', '/control/v1/merchants', { key: null, body: { name: 'other' } });
    await h.request('POST', '/v1/webhooks', { body: { url: 'http://receiver.test/default' } });
    await h.request('POST', '/control/v1/payments', { body: { amount: '10', currency: 'USD' } });
    await h.sim.webhooks.idle();
    expect(made.received).toHaveLength(1);
    await h.request('POST', '/control/v1/clock/advance', { key: other.body.apiKey.key, body: { ms: 2 * DAY } });
    await h.sim.webhooks.idle();
    expect(made.received).toHaveLength(1);
    await h.request('POST', '/control/v1/clock/advance', { body: { ms: 2 * DAY } });
    await h.sim.webhooks.idle();
    expect(made.received.filter((r) => r.body.event === 'payment.created')).toHaveLength(7);
  });

  it("a merchant reset empties that merchant's world and puts its clock back; keys, endpoint and other merchants stay", async () => {
    const made = harnessWithDeliveries();
    h = made.h;
    const clock = await h.request('POST', '/control/v1/clocks', { key: null });
    const other = await h.request('POST', '/control/v1/merchants', { key: null, body: { name: 'other', testClock: clock.body.id } });
    const otherKey = other.body.apiKey.key as string;
    await h.request('POST', '/v1/webhooks', { key: otherKey, body: { url: 'http://receiver.test/other' } });
    const kept = await h.createPayment();
    const gone = await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' }, otherKey);
    await h.request('POST', `/control/v1/payments/${gone.body.id}/pay`, { key: null, body: { chainId: 8453, token: 'USDC' } });
    await h.request('POST', '/control/v1/payouts', {
      key: otherKey,
      body: { amount: '10', currency: 'USD', recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    });
    await h.request('POST', `/control/v1/clocks/${clock.body.id}/advance`, { key: null, body: { ms: DAY } });
    await h.sim.webhooks.idle();

    const reset = await h.request('POST', '/control/v1/merchant/reset', { key: otherKey });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      merchantId: other.body.merchant.id,
      now: new Date(TEST_START).toISOString(),
      removed: { payments: 1, payouts: 1, deliveries: 4, transactions: 1 },
    });
    expect((await h.request('GET', '/v1/payments', { key: otherKey })).body.data).toEqual([]);
    expect((await h.request('GET', '/v1/transactions', { key: otherKey })).body.data).toEqual([]);
    expect((await h.request('GET', '/v1/webhooks/deliveries', { key: otherKey })).body.data).toEqual([]);
    expect((await h.request('GET', '/v1/webhooks', { key: otherKey })).body.url).toBe('http://receiver.test/other');
    // Its externalId is free again, its time is the sandbox time, and the test clock is still where it was.
    expect((await h.createPayment({ amount: '10', currency: 'USD', externalId: 'order-1' }, otherKey)).body.createdAt).toBe(
      new Date(TEST_START).toISOString(),
    );
    expect((await h.request('GET', `/control/v1/clocks/${clock.body.id}`, { key: null })).body.now).toBe(
      new Date(TEST_START + DAY).toISOString(),
    );
    expect((await h.request('GET', `/v1/payments/${kept.body.id}`)).body.status).toBe('ACTIVE');
    expect((await h.request('POST', '/control/v1/merchant/reset', { key: null })).status).toBe(401);
  });
});
