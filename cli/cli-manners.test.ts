// How the commands that talk to a running simulator meet mistakes: a usage error is one line, then where to look,
// and exit 2, before anything is sent or created; the control token is taken from --control-token or
// STABLEPAY_CONTROL_TOKEN by every command that uses the control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { runBin } from './test-support/run-bin.ts';

const KEY = 'pk_climanners12345678';
const TOKEN = 'control-token-of-this-test-0123';
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, defaultApiKey: KEY, controlToken: TOKEN, logger: { info() {}, error() {} } });
});
afterAll(async () => {
  await server.close();
});

const payments = async (): Promise<unknown[]> => {
  const res = await fetch(`${server.url}/v1/payments`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { data: unknown[] }).data;
};
const HINT = '(add --help for usage)';

describe('usage errors: one line, the hint, exit 2', () => {
  it.each([
    [
      ['reset', '--base-url', 'localhost:4000'],
      'stablepay reset: --base-url must start with http:// or https://, e.g. http://localhost:4000 (got "localhost:4000")',
    ],
    [
      ['trigger', 'test', '--base-url', 'http://127.0.0.1:4000/v1/'],
      'stablepay trigger: --base-url is the service root without /v1 (every path carries it): use http://127.0.0.1:4000',
    ],
    [
      ['listen', '--forward-to', 'http://127.0.0.1:5150/hooks', '--base-url', 'ftp://x'],
      'stablepay listen: --base-url must start with http:// or https:// (got "ftp://x")',
    ],
    [['listen', '--bogus'], "error: unknown option '--bogus'"],
    [['trigger'], "error: missing required argument 'event'"],
    [['start', '--port', 'x', '--no-chains'], 'stablepay start: port must be 0..65535, got "x"'],
  ])('%j', async (args, line) => {
    const run = await runBin(args, { STABLEPAY_API_KEY: KEY });
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(line);
    expect(lines.length).toBeLessThanOrEqual(2);
    if (lines.length === 2) expect(lines[1]).toBe(HINT);
  });
});

describe('trigger checks every flag before it creates anything', () => {
  it.each([
    [['--token', 'DAI'], 'stablepay trigger: --token must be USDC or USDT, got "DAI"'],
    [
      ['--chain', '8453', '--token', 'USDT'],
      'stablepay trigger: --token USDT is not on chain 8453 (Base); pick another --chain or --token',
    ],
    [['--chain', '10'], 'stablepay trigger: --chain must be one of 1, 42161, 8453, 137, 56, got "10"'],
    [['--amount', '1.234'], 'stablepay trigger: --amount must be a decimal with at most 2 places, like 25 or 25.50, got "1.234"'],
  ])('%j', async (flags, line) => {
    const run = await runBin(['trigger', 'payment.completed', '--base-url', server.url, '--control-token', TOKEN, ...flags], {
      STABLEPAY_API_KEY: KEY,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${line}\n${HINT}\n`);
    expect(await payments()).toEqual([]);
  });
});

describe('the control token', () => {
  it('is asked for in one line when missing, before trigger creates anything', async () => {
    const run = await runBin(['trigger', 'payment.completed', '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(
      /^stablepay trigger: GET \/control\/v1\/listeners: the control API wants its token \(.+\): --control-token <token> or STABLEPAY_CONTROL_TOKEN$/,
    );
    expect(await payments()).toEqual([]);
  });

  it('is taken from --control-token or STABLEPAY_CONTROL_TOKEN by trigger and reset (listen shares their client)', async () => {
    const flag = await runBin(['trigger', 'payment.completed', '--base-url', server.url, '--control-token', TOKEN], {
      STABLEPAY_API_KEY: KEY,
    });
    expect(flag.stderr).toContain('no enabled webhook endpoint and no listener');
    expect(flag.code).toBe(0);
    const fromEnv = await runBin(['trigger', 'payment.cancelled', '--base-url', server.url], {
      STABLEPAY_API_KEY: KEY,
      STABLEPAY_CONTROL_TOKEN: TOKEN,
    });
    expect(fromEnv.code).toBe(0);
    expect(await payments()).toHaveLength(2);
    const refused = await runBin(['reset', '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(refused.code).toBe(2);
    const reset = await runBin(['reset', '--base-url', server.url], { STABLEPAY_API_KEY: KEY, STABLEPAY_CONTROL_TOKEN: TOKEN });
    expect(reset.code).toBe(0);
    expect(await payments()).toEqual([]);
  });
});
