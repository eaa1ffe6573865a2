import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test-support/harness.ts';

let h: Harness;
afterEach(async () => h?.sim.close());

describe('405 with Allow for a known path and a wrong method', () => {
  it('answers 405, the Allow header, the error body and the rate-limit headers', async () => {
    h = createHarness();
    const res = await h.request('PUT', '/v1/payments', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({ statusCode: 405, message: 'Method PUT is not allowed on /v1/payments', error: 'Method Not Allowed' });
    expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
  });

  it('knows parameterised paths, sub-apps and the control routes', async () => {
    h = createHarness();
    const created = await h.createPayment();
    expect((await h.request('POST', `/v1/payments/${created.body.id}`)).headers.get('allow')).toBe('DELETE, GET, HEAD');
    expect((await h.request('PUT', '/v1/auth/api-keys', { body: {} })).headers.get('allow')).toBe('GET, HEAD, POST');
    const control = await h.request('DELETE', '/control/v1/clock', { key: null });
    expect(control.status).toBe(405);
    expect(control.headers.get('allow')).toBe('GET, HEAD');
  });

  it('unknown paths stay 404, and authentication still comes first', async () => {
    h = createHarness();
    expect((await h.request('GET', '/v1/nothing-here')).status).toBe(404);
    expect((await h.request('PUT', '/v1/payments/x/y')).status).toBe(404);
    expect((await h.request('PUT', '/v1/payments', { key: null, body: {} })).status).toBe(401);
    expect((await h.request('GET', '/v1/payments')).status).toBe(200);
  });
});
