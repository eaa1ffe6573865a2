import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/server.ts';
import { startServer } from '../../runtime/server.ts';
import { createHarness, type Harness } from '../../test-support/harness.ts';
import { controlExposure, isLoopbackHost } from './control-exposure.ts';

const TOKEN = 'ctl_0123456789abcdef0123';
const quiet = { info() {}, error() {} };
let h: Harness | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await h?.sim.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

describe('control token', () => {
  it('with a token, every control request must carry it; the merchant API is unaffected', async () => {
    h = createHarness({ controlToken: TOKEN });
    expect((await h.request('GET', '/control/v1/clock', { key: null })).status).toBe(401);
    expect((await h.request('POST', '/control/v1/merchants', { key: null, body: {} })).status).toBe(401);
    const wrong = await h.request('GET', '/control/v1/clock', { key: null, headers: { 'x-control-token': `${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect(wrong.text).not.toContain(TOKEN);
    expect((await h.request('GET', '/control/v1/clock', { key: null, headers: { 'x-control-token': TOKEN } })).status).toBe(200);
    expect((await h.request('GET', '/control/v1/health', { key: null, headers: { 'x-control-token': TOKEN } })).status).toBe(200);
    expect((await h.request('GET', '/v1/payments')).status).toBe(200);
  });

  it('without a token the control API stays open (the loopback default)', async () => {
    h = createHarness();
    expect((await h.request('GET', '/control/v1/clock', { key: null })).status).toBe(200);
  });

  it('refuses a token too short to protect anything', () => {
    expect(() => createHarness({ controlToken: 'short' })).toThrow(RangeError);
  });
});

describe('control exposure', () => {
  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('decides each case', () => {
    expect(controlExposure({ host: '0.0.0.0', control: false, token: undefined, insecure: false }).kind).toBe('disabled');
    expect(controlExposure({ host: '0.0.0.0', control: true, token: TOKEN, insecure: false }).kind).toBe('token');
    expect(controlExposure({ host: '127.0.0.1', control: true, token: undefined, insecure: false }).kind).toBe('loopback');
    expect(controlExposure({ host: '0.0.0.0', control: true, token: undefined, insecure: true }).kind).toBe('insecure');
    expect(() => controlExposure({ host: '0.0.0.0', control: true, token: undefined, insecure: false })).toThrow(/--control-token/);
  });

  it('a non-loopback bind without a token refuses to start; with a token or --control-insecure it starts and says which (the banner: cli/start-banner.test.ts)', async () => {
    await expect(startServer({ host: '0.0.0.0', port: 0, logger: quiet })).rejects.toThrow(/without a token/);
    server = await startServer({ host: '0.0.0.0', port: 0, logger: quiet, controlToken: TOKEN });
    expect(server.controlExposure.kind).toBe('token');
    await server.close();
    server = await startServer({ host: '0.0.0.0', port: 0, logger: quiet, controlInsecure: true });
    expect(server.controlExposure.kind).toBe('insecure');
    await server.close();
    server = await startServer({ host: '127.0.0.1', port: 0, logger: quiet });
    expect(server.controlExposure.kind).toBe('loopback');
  });
});
