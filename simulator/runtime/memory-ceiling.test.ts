// The ceiling on what is held in memory: past it, requests that may store more answer 507 with what to do (on the
// chain and on the direct path of a real server), whatever kind of record filled it; reads, cancels and resets go on,
// and a merchant reset makes room again. --max-payments caps payments alone.
import { describe, expect, it } from 'vitest';
import { createSimulator } from './app.ts';
import { DURABLE_COPIES, defaultMaxStoredBytes, estimateBytes, StoredObjectTally } from './memory-ceiling.ts';
import { startServer } from './server.ts';

const KEY = 'pk_ceiling00000000000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const body = JSON.stringify({ amount: '1', currency: 'USD' });

describe('the ceiling on what is held in memory', () => {
  it('creates past --max-payments answer 507 with the way out; lists still answer; a merchant reset makes room', async () => {
    const sim = createSimulator({ defaultApiKey: KEY, logger: quiet, maxPayments: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body })).status);
      expect(statuses).toEqual([201, 201, 201, 507]);
      const refused = await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body });
      expect(await refused.json()).toEqual({
        statusCode: 507,
        error: 'Insufficient Storage',
        message:
          'Insufficient storage: this simulator holds 3 payments, the most --max-payments allows; reset a merchant (stablepay reset --merchant) or start with a higher --max-payments',
      });
      const list = await sim.app.request('/v1/payments', { headers: auth });
      expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(3);
      const reset = await sim.app.request('/control/v1/merchant/reset', { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
      expect(reset.status).toBe(200);
      expect((await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body })).status).toBe(201);
    } finally {
      await sim.close();
    }
  });

  it('the direct path of a real server refuses alike', async () => {
    const server = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, maxPayments: 1 });
    try {
      expect(server.simulator.directPath).toBeDefined();
      const post = () => fetch(`${server.url}/v1/payments`, { method: 'POST', headers: auth, body });
      expect((await post()).status).toBe(201);
      const refused = await post();
      expect(refused.status).toBe(507);
      expect(((await refused.json()) as { message: string }).message).toMatch(/^Insufficient storage: this simulator holds 1 payments/);
    } finally {
      await server.close();
    }
  });

  it('deliveries fill it as payments do: test events on few payments reach 507, then reads and cancels go on and a merchant reset makes room', async () => {
    const sim = createSimulator({ defaultApiKey: KEY, logger: quiet, maxStoredMb: 1, webhookOptions: { retryDelaysMs: [3_600_000] } });
    try {
      expect(
        (
          await sim.app.request('/v1/webhooks', {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
          })
        ).status,
      ).toBe(201);
      const payment = (await (await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body })).json()) as { id: string };
      let accepted = 0;
      let refused: Response | undefined;
      while (!refused && accepted < 10_000) {
        const res = await sim.app.request('/v1/webhooks/test', { method: 'POST', headers: auth });
        if (res.status === 202) accepted += 1;
        else refused = res;
      }
      // 1 MiB at about 1.5 KB a test delivery (its body and first attempt included).
      expect(accepted).toBeGreaterThan(400);
      expect(accepted).toBeLessThan(800);
      expect(refused?.status).toBe(507);
      expect(((await refused!.json()) as { message: string }).message).toBe(
        'Insufficient storage: the records this simulator holds (payments, webhook deliveries and their attempts, ledger entries, keys…) are estimated at 1 MiB, the most its memory allows (--max-stored-mb 1); reset a merchant (stablepay reset --merchant) or start with a higher --max-stored-mb and a larger heap (node --max-old-space-size)',
      );
      // Payments are refused too: the ceiling is on every record, not on one kind.
      expect((await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body })).status).toBe(507);
      expect((await sim.app.request('/v1/webhooks/deliveries?limit=1', { headers: auth })).status).toBe(200);
      expect((await sim.app.request(`/v1/payments/${payment.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
      const reset = await sim.app.request('/control/v1/merchant/reset', { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
      expect(reset.status).toBe(200);
      expect((await sim.app.request('/v1/webhooks/test', { method: 'POST', headers: auth })).status).not.toBe(507);
      expect((await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body })).status).toBe(201);
    } finally {
      await sim.close();
    }
  });

  it('the tally follows every put, replacement and delete; a delivery weighs more with each attempt; durable mode counts each record twice', () => {
    const tally = new StoredObjectTally();
    tally.put('payment', 'p1', {});
    tally.put('payment', 'p1', {});
    tally.put('delivery', 'd1', { rawBody: 'x'.repeat(100), attempts: [] });
    const oneDelivery = estimateBytes('delivery', { rawBody: 'x'.repeat(100), attempts: [] });
    expect(tally.total).toBe(estimateBytes('payment', {}) + oneDelivery);
    tally.put('delivery', 'd1', { rawBody: 'x'.repeat(100), attempts: [{}, {}] });
    expect(tally.total).toBeGreaterThan(estimateBytes('payment', {}) + oneDelivery);
    tally.delete('payment', 'p1');
    tally.delete('delivery', 'd1');
    tally.delete('delivery', 'never-held');
    expect(tally.total).toBe(0);
    const durable = new StoredObjectTally(DURABLE_COPIES);
    durable.put('payment', 'p1', {});
    expect(durable.total).toBe(2 * estimateBytes('payment', {}));
  });

  it('the default is sized to the heap limit: 15 % of it, never under 4 MiB', () => {
    expect(defaultMaxStoredBytes(96 * 2 ** 20)).toBe(Math.floor(96 * 2 ** 20 * 0.15));
    expect(defaultMaxStoredBytes(4 * 2 ** 30)).toBe(Math.floor(4 * 2 ** 30 * 0.15));
    expect(defaultMaxStoredBytes(8 * 2 ** 20)).toBe(4 * 2 ** 20);
  });
});
