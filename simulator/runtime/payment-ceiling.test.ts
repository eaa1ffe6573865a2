// The ceiling on payments held in memory: creates past it answer 507 with what to do (on the chain and on the
// direct path of a real server), reads and other writes go on, and a merchant reset makes room again.
import { describe, expect, it } from 'vitest';
import { createSimulator } from './app.ts';
import { defaultMaxPayments } from './payment-ceiling.ts';
import { startServer } from './server.ts';

const KEY = 'pk_ceiling00000000000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const body = JSON.stringify({ amount: '1', currency: 'USD' });

describe('the ceiling on payments held in memory', () => {
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
          'Insufficient storage: this simulator holds 3 payments, the most its memory allows (--max-payments); reset a merchant (stablepay reset --merchant) or start with a higher --max-payments and more memory',
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

  it('the default is sized to the heap limit: half of it at 4 KiB a payment, never under 1,000', () => {
    expect(defaultMaxPayments(48 * 2 ** 20)).toBe(6144);
    expect(defaultMaxPayments(4 * 2 ** 30)).toBe(524_288);
    expect(defaultMaxPayments(1 * 2 ** 20)).toBe(1000);
  });
});
