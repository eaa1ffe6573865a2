// The banner `stablepay start` prints, rendered for a real server without chains.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import { startServer } from '@stablepay/simulator/server';
import { startupBanner } from './start-banner.ts';

let server: RunningServer;
const KEY = 'pk_servertest0000000000000000000000000000000000000000';

beforeAll(async () => {
  server = await startServer({ port: 0, defaultApiKey: KEY, logger: { info() {}, error() {} } });
});
afterAll(async () => {
  await server.close();
});

describe('start banner', () => {
  it('prints base URL, pay URL, key, control URL and the two curl lines', () => {
    const banner = startupBanner(server);
    expect(banner).toContain(`${server.url}/v1`);
    expect(banner).toContain(`Pay URL        ${server.url}`);
    expect(banner).toContain(`${server.url}/control/v1`);
    expect(banner).toContain(KEY);
    expect(banner).toMatch(/curl -s -X POST \S+\/v1\/payments .*"amount":"100"/);
    expect(banner).toMatch(/curl -s -X POST \S+\/v1\/webhooks .*"url":/);
  });

  it('says who can reach the control API, and never prints the control token', async () => {
    const TOKEN = 'ctl_0123456789abcdef0123';
    const quiet = { info() {}, error() {} };
    const withToken = await startServer({ host: '0.0.0.0', port: 0, logger: quiet, controlToken: TOKEN });
    expect(startupBanner(withToken)).toMatch(/Control API .*token required/);
    expect(startupBanner(withToken)).not.toContain(TOKEN);
    await withToken.close();
    const insecure = await startServer({ host: '0.0.0.0', port: 0, logger: quiet, controlInsecure: true });
    expect(startupBanner(insecure)).toMatch(/Control API .*NO TOKEN on 0\.0\.0\.0/);
    await insecure.close();
    expect(startupBanner(server)).toMatch(/Control API .*loopback/);
  });
});
