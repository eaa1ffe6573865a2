// The page's server side in-process: what it renders, what its JSON endpoints reveal, and that a
// payment which cannot be paid is refused without ever reaching the checkout service.
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../http/error-handler.ts';
import type { Harness } from '../../test-support/harness.ts';
import { createHarness, TEST_API_KEY } from '../../test-support/harness.ts';
import type { PayPageDeps } from './pay-page-deps.ts';
import { payPageRoutes } from './routes.ts';
import type { FakeCheckout } from '../../test-support/fake-checkout.ts';
import { createFakeCheckout } from '../../test-support/fake-checkout.ts';

const silent = { info() {}, error() {} };

function mountPage(h: Harness, overrides: Partial<PayPageDeps> = {}): Hono {
  const app = new Hono();
  app.onError(errorHandler(silent));
  app.route('/p', payPageRoutes({ payments: h.sim.payments, merchants: h.sim.merchants, clock: h.sim.clock, ...overrides }));
  return app;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('hosted payment page routes', () => {
  let h: Harness;
  let checkout: FakeCheckout;
  let page: Hono;
  let id: string;

  beforeEach(async () => {
    h = createHarness();
    checkout = createFakeCheckout();
    page = mountPage(h, { checkout });
    const created = await h.createPayment({ amount: '100', currency: 'USD', title: 'Order <42> & "friends"', externalId: 'order-42' });
    id = created.body.id;
  });

  it('renders the payment: title, amount, status, countdown from the virtual clock, and the offered pairs', async () => {
    const res = await page.request(`/p/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('Order &lt;42&gt; &amp; &quot;friends&quot;');
    expect(html).toContain('<span id="fiat-amount">100</span>');
    expect(html).toContain('<span id="fiat-currency">USD</span>');
    expect(html).toMatch(/id="status-badge"[^>]*>ACTIVE</);
    // The harness clock stands still at creation: exactly one hour is left.
    expect(html).toMatch(/<time id="countdown"[^>]*>1:00:00<\/time>/);
    expect(html).toContain('data-now="2026-11-21T10:00:00.000Z"');
    expect(html).toContain('data-expires-at="2026-11-21T11:00:00.000Z"');
    expect(html).toContain('value="8453:USDC"');
    expect(html).toContain('value="137:USDT"');
    expect(html).toContain('Base · USDC');
    expect(html).not.toMatch(/<fieldset id="checkout"[^>]*disabled/);
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    expect(html).toMatch(/<button id="wallet-button"[^>]*disabled[^>]*aria-describedby="wallet-help"/);
    expect(html).toContain('aria-live="polite"');
    expect(checkout.calls.map((c) => c.method)).toEqual(['pairs']);
  });

  it('never puts the API key, merchant id or externalId in the page or its state', async () => {
    const html = await (await page.request(`/p/${id}`)).text();
    const state = await (await page.request(`/p/${id}/state`)).text();
    for (const text of [html, state]) {
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain(h.sim.defaultMerchant.id);
      expect(text).not.toContain('order-42');
    }
    expect(Object.keys(JSON.parse(state).payment).sort()).toEqual(
      [
        'amount',
        'amountToken',
        'chainId',
        'chainName',
        'currency',
        'error',
        'expiresAt',
        'gasActual',
        'id',
        'merchantName',
        'paidAt',
        'redirectUrl',
        'status',
        'title',
        'token',
        'txHash',
      ].sort(),
    );
  });

  it('may be framed by any site: CSP frame-ancestors *, no X-Frame-Options, scripts only from itself', async () => {
    for (const path of [`/p/${id}`, `/p/${id}/state`]) {
      const res = await page.request(path);
      expect(res.headers.get('x-frame-options')).toBeNull();
      expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers an unknown or malformed link with a 404 page', async () => {
    for (const path of ['/p/5b0c8a1e-0000-4000-8000-000000000000', '/p/not-a-uuid']) {
      const res = await page.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Payment not found');
    }
    expect((await page.request('/p/5b0c8a1e-0000-4000-8000-000000000000/state')).status).toBe(404);
  });

  it('state carries the virtual now and moves with the clock (EXPIRED after expiresAt)', async () => {
    let state = await (await page.request(`/p/${id}/state`)).json();
    expect(state).toMatchObject({
      now: '2026-11-21T10:00:00.000Z',
      payment: { status: 'ACTIVE', expiresAt: '2026-11-21T11:00:00.000Z', merchantName: 'Default merchant' },
    });
    await h.sim.clock.advance(3_600_000);
    state = await (await page.request(`/p/${id}/state`)).json();
    expect(state).toMatchObject({ now: '2026-11-21T11:00:00.000Z', payment: { status: 'EXPIRED' } });
  });

  it('signs in by e-mail and by wallet, and prepares only with a token issued for this payment', async () => {
    const session = await (await page.request(`/p/${id}/sign-in`, json({ email: ' ann@example.com ' }))).json();
    expect(session).toMatchObject({ checkoutToken: 'ct_fake1', ownerAddress: expect.stringMatching(/^0x/) });
    expect(checkout.calls.at(-1)).toEqual({ method: 'signIn', args: [id, { email: 'ann@example.com' }] });
    const connect = await page.request(`/p/${id}/connect`, json({ ownerAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }));
    expect(await connect.json()).toEqual({ checkoutToken: 'ct_fake2' });

    const prepare = (token: string | null, body: unknown = { chainId: 8453, token: 'USDC' }, paymentId = id) =>
      page.request(`/p/${paymentId}/prepare`, json(body, token ? { authorization: `Bearer ${token}` } : {}));
    const ok = await prepare('ct_fake1');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), userOperation: { signature: '0x' } });
    expect(checkout.calls.at(-1)).toEqual({ method: 'prepare', args: ['ct_fake1', { chainId: 8453, token: 'USDC' }] });

    expect((await prepare(null)).status).toBe(401);
    expect((await prepare('ct_unknown')).status).toBe(401);
    const other = (await h.createPayment()).body.id;
    expect((await prepare('ct_fake1', undefined, other)).status).toBe(401);
    expect((await prepare('ct_fake1', { chainId: 56, token: 'USDC' })).status).toBe(400);
    expect((await prepare('ct_fake1', { chainId: 8453 })).status).toBe(400);
    expect(checkout.calls.filter((c) => c.method === 'prepare')).toHaveLength(1);
  });

  it('refuses pairs the payment does not accept even when the chain table has them', async () => {
    const narrow = (await h.createPayment({ amount: '10', currency: 'EUR', acceptedChains: [137], acceptedTokens: ['USDT'] })).body.id;
    const { checkoutToken } = await (await page.request(`/p/${narrow}/sign-in`, json({ email: 'bo@example.com' }))).json();
    const res = await page.request(
      `/p/${narrow}/prepare`,
      json({ chainId: 137, token: 'USDC' }, { authorization: `Bearer ${checkoutToken}` }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('USDC on chain 137 is not accepted for this payment');
  });

  it('validates sign-in and connect bodies field by field', async () => {
    const bad = await page.request(`/p/${id}/sign-in`, json({ email: 'not-an-email', extra: 1 }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: { path: string[] }) => e.path)).toEqual([['extra'], ['email']]);
    const wallet = await page.request(`/p/${id}/connect`, json({ ownerAddress: '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }));
    expect(wallet.status).toBe(400);
    expect((await wallet.json()).errors[0].message).toContain('checksum');
    expect(checkout.calls).toEqual([]);
  });

  it('a cancelled payment shows its state with every control disabled, and every action is refused', async () => {
    const signedIn = await (await page.request(`/p/${id}/sign-in`, json({ email: 'ann@example.com' }))).json();
    expect((await h.request('DELETE', `/v1/payments/${id}`)).status).toBe(200);
    checkout.calls.length = 0;

    const html = await (await page.request(`/p/${id}`)).text();
    expect(html).toMatch(/<fieldset id="checkout" class="checkout" disabled/);
    expect(html).toContain('Payment cancelled');
    expect(html).not.toContain('name="pair"');

    const signIn = await page.request(`/p/${id}/sign-in`, json({ email: 'ann@example.com' }));
    expect(signIn.status).toBe(409);
    expect((await signIn.json()).message).toBe('Payment is not ACTIVE (status: CANCELLED)');
    expect((await page.request(`/p/${id}/connect`, json({ ownerAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }))).status).toBe(409);
    const prepare = await page.request(
      `/p/${id}/prepare`,
      json({ chainId: 8453, token: 'USDC' }, { authorization: `Bearer ${signedIn.checkoutToken}` }),
    );
    expect(prepare.status).toBe(409);
    expect(checkout.calls).toEqual([]);
  });

  it('shows the merchant redirect URL only once the payment succeeded, and never a non-http one', async () => {
    const redirects: Record<string, string> = { [h.sim.defaultMerchant.id]: 'https://shop.example/thanks?order=42' };
    page = mountPage(h, { checkout, redirectUrlOf: (m) => redirects[m] });
    expect((await (await page.request(`/p/${id}/state`)).json()).payment.redirectUrl).toBeNull();
    expect((await h.request('POST', `/control/v1/payments/${id}/pay`, { body: { chainId: 8453, token: 'USDC' } })).status).toBe(200);
    const state = await (await page.request(`/p/${id}/state`)).json();
    expect(state.payment).toMatchObject({
      status: 'SUCCESSFUL',
      redirectUrl: 'https://shop.example/thanks?order=42',
      chainName: 'Base',
      token: 'USDC',
      txHash: expect.stringMatching(/^0x/),
    });
    const html = await (await page.request(`/p/${id}`)).text();
    expect(html).toContain('href="https://shop.example/thanks?order=42"');
    expect(html).toContain('Payment complete');

    // The default seam reads the merchant record's optional redirectUrl and drops javascript: URLs.
    Object.assign(h.sim.defaultMerchant, { redirectUrl: 'javascript:alert(1)' });
    const fallback = mountPage(h, { checkout });
    expect((await (await fallback.request(`/p/${id}/state`)).json()).payment.redirectUrl).toBeNull();
    Object.assign(h.sim.defaultMerchant, { redirectUrl: 'http://127.0.0.1:9/done' });
    expect((await (await fallback.request(`/p/${id}/state`)).json()).payment.redirectUrl).toBe('http://127.0.0.1:9/done');
  });

  it('without a checkout service the page explains it and actions answer 503', async () => {
    const bare = mountPage(h);
    const html = await (await bare.request(`/p/${id}`)).text();
    expect(html).toContain('no chains attached');
    expect(html).toMatch(/<fieldset id="checkout" class="checkout" disabled/);
    expect((await bare.request(`/p/${id}/sign-in`, json({ email: 'ann@example.com' }))).status).toBe(503);
  });
});
