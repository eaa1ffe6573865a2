// The banner `stablepay start` prints, rendered for a real server without chains.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../simulator/runtime/server.ts';
import { startServer } from '../simulator/runtime/server.ts';
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
});
