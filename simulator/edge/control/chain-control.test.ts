// The control API's customer actions on the chain-backed simulator: same documented shapes and status codes as with
// the instant driver, but every submit is a real user operation through the web3 proxy, held in the bundler's
// mempool until confirm (bundled: a real transaction) or fail (dropped: nothing reaches the chain).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChainNetwork, type ChainNetwork } from '@stablepay/chains';
import { createChainHarness, type ChainHarness } from '../../test-support/chain-harness.ts';
import { SELLER_A } from '../../test-support/harness.ts';

let network: ChainNetwork;
let h: ChainHarness;
beforeAll(async () => {
  network = await startChainNetwork();
  h = createChainHarness(network);
});
afterAll(async () => {
  await h?.sim.close();
  await network?.stop();
});

const control = (id: string, action: string, body?: unknown) =>
  h.request('POST', `/control/v1/payments/${id}/${action}`, { ...(body === undefined ? {} : { body }), key: null });
const create = async (body: Record<string, unknown> = {}) =>
  (await h.createPayment({ amount: '100', currency: 'USD', ...body })).body.id as string;
const events = (id: string) => h.webhooks.emitted.filter((e) => e.paymentId === id).map((e) => e.type);

describe('submit, confirm, fail, pay on the chains', () => {
  it('submit: a real user operation accepted by the bundler and held; the payment is PROCESSING until confirm', async () => {
    const id = await create({ sellers: [{ address: SELLER_A, amount: '40' }], externalId: 'held' });
    const submitted = await control(id, 'submit', { chainId: 42161, token: 'USDT' });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      status: 'PROCESSING',
      chainId: 42161,
      token: 'USDT',
      exchangeRate: '1.000000',
      amountToken: '100.000000',
      serviceFeeToken: '0.500000',
      merchantFeeToken: '59.700000',
      txHash: null,
    });
    await new Promise((r) => setTimeout(r, 150)); // longer than any automatic bundle delay here
    expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe('PROCESSING');
    const confirmed = await control(id, 'confirm');
    expect(confirmed.body).toMatchObject({ status: 'SUCCESSFUL', gasActual: expect.stringMatching(/^\d+\.\d{6}$/) });
    const receipt = await network.chain(42161).publicClient.getTransactionReceipt({ hash: confirmed.body.txHash });
    expect(receipt.status).toBe('success');
    expect(events(id)).toEqual(['payment.processing', 'payment.completed']);
    const ledger = (await h.request('GET', '/v1/transactions?limit=100')).body.data.find((t: { paymentId: string }) => t.paymentId === id);
    expect(ledger.transfers.map((t: { role: string; amountToken: string }) => [t.role, t.amountToken])).toEqual([
      ['merchant', '59.700000'],
      ['seller', '39.800000'],
      ['service', '0.500000'],
    ]);
    expect((await control(id, 'confirm')).status).toBe(409);
    expect((await control(id, 'fail')).status).toBe(409);
  });

  it('fail drops the operation from the mempool: FAILED with the given error (default: bundler rejection), no transaction', async () => {
    const a = await create();
    await control(a, 'submit', { chainId: 1, token: 'USDC' });
    const dropped = await control(a, 'fail');
    expect(dropped.body).toMatchObject({
      status: 'FAILED',
      txHash: null,
      error: { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: 'The bundler rejected the user operation' },
    });
    const b = await create();
    await control(b, 'submit', { chainId: 56, token: 'USDT' });
    const reverted = await control(b, 'fail', { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'execution reverted: nope' });
    expect(reverted.body.error).toEqual({ code: 'TRANSACTION_REVERTED', source: 'chain', message: 'execution reverted: nope' });
    expect(events(a)).toEqual(['payment.processing', 'payment.failed']);
    expect(events(b)).toEqual(['payment.processing', 'payment.failed']);
    expect((await control(b, 'confirm')).status).toBe(409);
    expect((await control(b, 'fail', { source: 'nope' })).status).toBe(400);
  });

  it('pay = submit + confirm, on every chain', async () => {
    for (const [chainId, token] of [
      [1, 'USDT'],
      [42161, 'USDC'],
      [8453, 'USDC'],
      [137, 'USDT'],
      [56, 'USDT'],
    ] as const) {
      const id = await create({ amount: '12.34' });
      const paid = await control(id, 'pay', { chainId, token });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ status: 'SUCCESSFUL', chainId, token, amountToken: '12.340000' });
      const tx = await network.chain(chainId).publicClient.getTransaction({ hash: paid.body.txHash });
      expect(tx.to?.toLowerCase()).toBe(network.entryPoint.toLowerCase());
      expect(events(id)).toEqual(['payment.processing', 'payment.completed']);
    }
  });

  it('refuses as documented: 409 wrong state, 400 pair not allowed or unknown chain, 404 unknown payment', async () => {
    const id = await create({ amount: '10', acceptedChains: [8453], acceptedTokens: ['USDC'] });
    expect((await control(id, 'confirm')).status).toBe(409);
    expect((await control(id, 'fail')).status).toBe(409);
    expect((await control(id, 'submit', { chainId: 1, token: 'USDC' })).status).toBe(400);
    expect((await control(id, 'submit', { chainId: 8453, token: 'USDT' })).status).toBe(400);
    expect((await control(id, 'submit', { chainId: 999, token: 'USDC' })).body.errors).toEqual([
      { path: ['chainId'], message: expect.any(String) },
    ]);
    expect((await control('00000000-0000-4000-8000-000000000000', 'submit', { chainId: 8453, token: 'USDC' })).status).toBe(404);
    expect((await control(id, 'submit', { chainId: 8453, token: 'USDC' })).status).toBe(200);
    expect((await control(id, 'submit', { chainId: 8453, token: 'USDC' })).status).toBe(409);
    expect((await control(id, 'pay', { chainId: 8453, token: 'USDC' })).status).toBe(409);
    expect(events(id)).toEqual(['payment.processing']);
    const cancelled = await create();
    await h.request('DELETE', `/v1/payments/${cancelled}`);
    expect((await control(cancelled, 'submit', { chainId: 8453, token: 'USDC' })).body).toEqual({
      statusCode: 409,
      message: 'Payment is not payable (status: CANCELLED)',
      error: 'Conflict',
    });
  });

  it('a submit at expiresAt is refused with 400 and the payment expires', async () => {
    const id = await create({ amount: '10', expiresAt: new Date(h.sim.clock.now() + 15 * 60_000).toISOString() });
    // Move the clock without firing timers, as a real-time drift would.
    (h.sim.clock as unknown as { offset: number }).offset += 15 * 60_000;
    const res = await control(id, 'submit', { chainId: 1, token: 'USDC' });
    expect(res.body).toEqual({ statusCode: 400, message: 'Payment has expired', error: 'Bad Request' });
    expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe('EXPIRED');
    expect(events(id)).toEqual(['payment.expired']);
  });
});

describe('clock and health', () => {
  it("advancing the virtual clock moves every chain's block time", async () => {
    await h.request('POST', '/control/v1/clock/advance', { body: { ms: 36 * 3_600_000 } });
    const target = Math.floor(h.sim.clock.now() / 1000);
    for (const [chainId, handle] of network.chains) {
      await handle.testClient.mine({ blocks: 1 });
      const block = await handle.publicClient.getBlock();
      expect(Number(block.timestamp), `chain ${chainId}`).toBeGreaterThanOrEqual(target - 1);
      expect(Number(block.timestamp), `chain ${chainId}`).toBeLessThanOrEqual(target + 30);
    }
    // A payment settled now is stamped with that block time.
    const id = await create({ amount: '5' });
    const paid = await control(id, 'pay', { chainId: 137, token: 'USDC' });
    expect(Date.parse(paid.body.paidAt)).toBeGreaterThanOrEqual((target - 1) * 1000);
    expect(Date.parse(paid.body.paidAt)).toBeLessThanOrEqual(h.sim.clock.now());
  });

  it('GET /health reports the real block numbers of the five chains', async () => {
    const first = await h.request('GET', '/control/v1/health', { key: null });
    expect(first.body.status).toBe('ok');
    expect(first.body.chains.map((c: { chainId: number; status: string }) => [c.chainId, c.status])).toEqual([
      [1, 'running'],
      [42161, 'running'],
      [8453, 'running'],
      [137, 'running'],
      [56, 'running'],
    ]);
    for (const c of first.body.chains) {
      expect(c.blockNumber).toBe(Number(await network.chain(c.chainId).publicClient.getBlockNumber()));
      expect(c.rpcUrl).toBe(network.chain(c.chainId).rpcUrl);
    }
    await control(await create({ amount: '5' }), 'pay', { chainId: 8453, token: 'USDC' });
    const second = await h.request('GET', '/control/v1/health', { key: null });
    const base = (r: typeof first) => r.body.chains.find((c: { chainId: number }) => c.chainId === 8453).blockNumber as number;
    expect(base(second)).toBeGreaterThan(base(first));
  });
});
