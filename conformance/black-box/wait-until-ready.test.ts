import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntilReady } from './wait-until-ready.ts';

// A server that answers in the target's place (what holds the port the target lost).
describe('waitUntilReady', () => {
  let stranger: Server;
  let baseUrl: string;
  beforeAll(async () => {
    stranger = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => stranger.close(() => resolve())));

  const params = (exited: () => { code: number | null; signal: string | null } | undefined) => ({
    baseUrl,
    signal: { kind: 'http' as const, path: '/v1/payments' },
    timeoutMs: 5_000,
    output: () => '',
    exited,
    logPath: '/tmp/target.log',
    what: 'the target command',
  });

  it('is ready when the port answers and the target stays up', async () => {
    await expect(waitUntilReady(params(() => undefined))).resolves.toBeUndefined();
  });

  it('is ready at once when the listener is known to be the target own, and waits the grace when it is not', async () => {
    // A grace far longer than the test: ready before it means no grace was waited.
    const long = { ...params(() => undefined), graceMs: 600_000 };
    await expect(waitUntilReady({ ...long, ownsListener: () => true })).resolves.toBeUndefined();
    for (const ownsListener of [() => false, () => undefined]) {
      const aSecond = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000));
      expect(await Promise.race([waitUntilReady({ ...long, ownsListener }).then(() => 'ready'), aSecond])).toBe('still waiting');
    }
  });

  it('refuses a listener of its own when the target has exited meanwhile', async () => {
    await expect(waitUntilReady({ ...params(() => ({ code: 1, signal: null })), ownsListener: () => true })).rejects.toThrow(
      /^the target command exited \(code 1\)/,
    );
  });

  it('refuses an answer from another process when the target exits just after it (it lost its port)', async () => {
    const exitAt = Date.now() + 50;
    const exited = () => (Date.now() >= exitAt ? { code: 1, signal: null } : undefined);
    await expect(waitUntilReady(params(exited))).rejects.toThrow(
      /^the target command exited \(code 1\) before it answered at http:\/\/127\.0\.0\.1:\d+\/v1\/payments; its output is in \/tmp\/target\.log$/,
    );
  });
});
