import { describe, expect, it } from 'vitest';
import { createSimulator } from './app.ts';
import { createHarness, TEST_API_KEY } from '../test-support/harness.ts';

describe('createSimulator', () => {
  it('renders unknown errors as a logged, generic 500 (never the error text)', async () => {
    const logged: string[] = [];
    const h = createHarness({
      logger: { info() {}, error: (message, error) => void logged.push(`${message}: ${(error as Error).message}`) },
      settlement: () => ({
        submit: async () => {
          throw new Error('internal detail: db password is hunter2');
        },
        confirm: async () => {
          throw new Error('x');
        },
        fail: async () => {
          throw new Error('x');
        },
      }),
    });
    const p = await h.createPayment();
    const res = await h.request('POST', `/control/v1/payments/${p.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' });
    expect(logged).toEqual([`Unhandled error on POST /control/v1/payments/${p.body.id}/submit: internal detail: db password is hunter2`]);
    await h.sim.close();
  });

  it('answers unknown routes outside /v1 with the error body', async () => {
    const h = createHarness();
    const res = await h.request('GET', '/nowhere', { key: null });
    expect(res).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Route GET /nowhere not found', error: 'Not Found' } });
    await h.sim.close();
  });

  it('is reproducible with a seed (ids, tx hashes) while keys stay random', async () => {
    const run = async () => {
      const h = createHarness({ seed: 42, defaultApiKey: undefined as unknown as string });
      const key = h.sim.defaultApiKey;
      const p = await h.createPayment(undefined, key);
      const paid = await h.request('POST', `/control/v1/payments/${p.body.id}/pay`, { body: { chainId: 1, token: 'USDC' } });
      const merchant = await h.request('POST', '/control/v1/merchants');
      await h.sim.close();
      return { id: p.body.id, txHash: paid.body.txHash, merchant: merchant.body.merchant.id, key, newKey: merchant.body.apiKey.key };
    };
    const [a, b] = [await run(), await run()];
    expect([a.id, a.txHash, a.merchant]).toEqual([b.id, b.txHash, b.merchant]);
    expect(a.key).not.toBe(b.key);
    expect(a.newKey).not.toBe(b.newKey);
  });

  it('validates the default key and closes idempotently, stopping expiry timers', async () => {
    expect(() => createSimulator({ defaultApiKey: 'sk_nope' })).toThrow(RangeError);
    const sim = createSimulator({ defaultApiKey: TEST_API_KEY });
    await sim.app.request('/v1/payments', {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: '{"amount":"5","currency":"USD"}',
    });
    expect(sim.clock.pendingTimers()).toBe(1);
    await Promise.all([sim.close(), sim.close()]);
    expect(sim.clock.pendingTimers()).toBe(0);
  });
});
