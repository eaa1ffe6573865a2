import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test-support/harness.ts';

let h: Harness;
afterEach(async () => h?.sim.close());
const rpc = (chain: string, raw: string, key?: string | null) =>
  h.request('POST', `/v1/web3/${chain}`, { raw, headers: { 'content-type': 'application/json' }, ...(key !== undefined ? { key } : {}) });

describe('POST /v1/web3/{chainId}', () => {
  it('is 404 for unknown chains and 401 without credentials', async () => {
    h = createHarness();
    for (const chain of ['5', '0', 'abc', '01', '99999999999']) {
      const res = await rpc(chain, '{}');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
    }
    expect((await rpc('1', '{}', null)).status).toBe(401);
  });

  it('without a chain node answers JSON-RPC errors', async () => {
    h = createHarness();
    expect((await rpc('8453', '{oops')).body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect((await rpc('8453', '{"id":1}')).body.error.code).toBe(-32600);
    expect((await rpc('8453', '[]')).body.error.code).toBe(-32600);
    const single = await rpc('8453', '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}');
    expect(single.status).toBe(200);
    expect(single.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, message: 'No node is attached for chain 8453 in this simulator run' },
    });
    const batch = await rpc('1', '[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"},{"bad":true}]');
    expect(batch.body.map((r: { error: { code: number } }) => r.error.code)).toEqual([-32000, -32600]);
  });

  it("hands the raw body to the chain layer's handler, and accepts checkout tokens when told how", async () => {
    const calls: [number, string][] = [];
    const callers: unknown[] = [];
    h = createHarness({
      web3Handler: async (chainId, rawBody, caller) => {
        calls.push([chainId, rawBody]);
        callers.push(caller);
        return rawBody.includes('"id"') ? { status: 200, body: { jsonrpc: '2.0', id: 1, result: '0x2105' } } : { status: 204, body: null };
      },
      checkoutTokens: (token) => (token === 'ct_good' ? { merchantId: 'm' } : undefined),
    });
    const res = await rpc('8453', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}');
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' });
    expect(calls).toEqual([[8453, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}']]);
    expect(callers).toEqual([{ merchantId: h.sim.defaultMerchant.id }]);
    expect((await rpc('8453', '{"id":2}', 'ct_good')).status).toBe(200);
    // The handler learns which checkout token the customer used (it ties user operations to their payment).
    expect(callers[1]).toEqual({ merchantId: 'm', checkoutToken: 'ct_good' });
    // A JSON-RPC notification gets 204 with no body.
    const notification = await rpc('8453', '{"jsonrpc":"2.0","method":"eth_chainId"}');
    expect([notification.status, notification.text]).toEqual([204, '']);
    expect((await rpc('8453', '{}', 'ct_bad')).status).toBe(401);
    // Checkout tokens open the web3 proxy only.
    expect((await h.request('GET', '/v1/payments', { key: 'ct_good' })).status).toBe(401);
  });
});
