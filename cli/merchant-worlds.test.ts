// `stablepay trigger` and `stablepay reset --merchant` act on the merchant of their key and on its clock only: another
// merchant's ACTIVE payment stays ACTIVE, its clock and the sandbox clock stay on wall time (issue 27, item 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { runBin } from './test-support/run-bin.ts';
import { USAGE_HINT } from './exit-codes.ts';

const KEY = 'pk_cliworlds12345678';
let server: RunningServer;
/** A second merchant, whose world the commands run with KEY must not touch. */
let otherKey: string;

beforeAll(async () => {
  server = await startServer({ port: 0, defaultApiKey: KEY, logger: { info() {}, error() {} } });
  const created = await fetch(`${server.url}/control/v1/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"bystander"}',
  });
  otherKey = ((await created.json()) as { apiKey: { key: string } }).apiKey.key;
});
afterAll(async () => {
  await server.close();
});

async function call(path: string, key: string | null, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const createPayment = async (key: string) =>
  (await call('/v1/payments', key, { method: 'POST', body: { amount: '10', currency: 'USD' } })).body;
const offsetOf = async (key: string | null) => (await call('/control/v1/clock', key)).body.offsetMs as number;

describe("commands on one merchant's world", () => {
  it("trigger payment.expired moves its merchant's clock only: another merchant's payment stays ACTIVE, on wall time", async () => {
    const bystander = await createPayment(otherKey);
    const { code, stdout, stderr } = await runBin(['trigger', 'payment.expired', '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(stderr.replace(/^note: .*\n/m, '')).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^payment\.expired: payment \S+ ACTIVE -> EXPIRED \(expire\)$/m);
    // The trigger's merchant is past the expiry; nobody else moved.
    expect(await offsetOf(KEY)).toBeGreaterThan(10 * 60_000);
    expect(await offsetOf(otherKey)).toBe(0);
    expect(await offsetOf(null)).toBe(0);
    const after = (await call(`/v1/payments/${bystander.id}`, otherKey)).body;
    expect(after.status).toBe('ACTIVE');
    expect(after.expiresAt).toBe(bystander.expiresAt);
    // A new payment of the bystander is made on wall time (not a month ahead).
    const fresh = await createPayment(otherKey);
    expect(Math.abs(Date.parse(fresh.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it("reset --merchant empties that merchant's world and puts its clock back; the other merchant keeps everything", async () => {
    await createPayment(KEY);
    const before = (await call('/v1/payments', otherKey)).body.data.length as number;
    expect(before).toBeGreaterThan(0);
    const { code, stdout } = await runBin(['reset', '--merchant', '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^reset: merchant \S+, clock at \S+; removed [1-9]\d* payments, 0 payouts, \d+ deliveries, \d+ transactions$/m);
    expect(stdout).not.toContain(KEY);
    expect((await call('/v1/payments', KEY)).body.data).toEqual([]);
    expect(await offsetOf(KEY)).toBe(0);
    // The key still works (the merchant and its keys stay) and the other merchant's payments are all there.
    expect((await call('/v1/payments', otherKey)).body.data).toHaveLength(before);
  });

  it('reset --merchant needs a key: exit 2, one sentence and the usage hint', async () => {
    const { code, stderr } = await runBin(['reset', '--merchant', '--base-url', server.url]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('API key'), USAGE_HINT]);
  });
});
