// `stablepay reset` against a running simulator: the stores are emptied and the key policy holds;
// an unreachable simulator is exit 1, a bad flag exit 2, each in one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { runBin } from './test-support/run-bin.ts';

const KEY = 'pk_clireset12345678';
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, defaultApiKey: KEY, logger: { info() {}, error() {} } });
});
afterAll(async () => {
  await server.close();
});

describe('stablepay reset', () => {
  it('empties the simulator and keeps the key it is given', async () => {
    const created = await fetch(`${server.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"amount":"10","currency":"USD"}',
    });
    expect(created.status).toBe(201);
    const { code, stdout } = await runBin(['reset', '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^reset: clock at \S+, default merchant \S+$/m);
    expect(stdout).not.toContain(KEY);
    const list = await fetch(`${server.url}/v1/payments`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('exits 1 when nothing answers and 2 on a bad base URL or key', async () => {
    const unreachable = await runBin(['reset', '--base-url', 'http://127.0.0.1:1']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^stablepay reset: cannot reach http:\/\/127\.0\.0\.1:1 /m);
    const badUrl = await runBin(['reset', '--base-url', 'nope']);
    expect(badUrl.code).toBe(2);
    const badKey = await runBin(['reset', '--base-url', server.url, '--api-key', 'sk_x']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('apiKey');
  });
});
