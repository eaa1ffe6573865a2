// The browser script is really bundled (viem included, no bare imports left for the browser to
// resolve), served with an ETag that answers 304, and carries no server-side secrets.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createHarness, TEST_API_KEY } from '../../test-support/harness.ts';
import { payPageRoutes } from './routes.ts';

describe('pay page assets', () => {
  const h = createHarness();
  const app = new Hono().route('/p', payPageRoutes({ payments: h.sim.payments, merchants: h.sim.merchants, clock: h.sim.clock }));

  it('serves the bundled script with an ETag and answers a revalidation with 304', async () => {
    const res = await app.request('/p/assets/pay-page.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const script = await res.text();
    expect(script.length).toBeGreaterThan(50_000); // viem's signing code is inside
    expect(script).not.toMatch(/^\s*import\s/m);
    expect(script).not.toMatch(/from\s*["'](viem|hono)/);
    expect(script).toContain('eth_sendUserOperation');
    expect(script).not.toContain(TEST_API_KEY);
    const again = await app.request('/p/assets/pay-page.js', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  }, 60_000);

  it('serves the stylesheet', async () => {
    const res = await app.request('/p/assets/pay-page.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await res.text()).toContain(':focus-visible');
  });
});
