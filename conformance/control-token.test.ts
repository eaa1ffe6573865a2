// The suite against a simulator whose control API requires a token: it passes the token it is
// given (and never writes it into a report), and without it the control API is unusable.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { runConformance } from './index.ts';
import { ConfigError, resolveOptions } from './options.ts';
import { quietLogger } from './test-support/simulator.ts';

const TOKEN = 'ctl_conformance_0123456789abcdef';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, controlToken: TOKEN });
});
afterAll(async () => server?.close());

describe('conformance --control-token', () => {
  it('reads the token from the option or STABLEPAY_CONTROL_TOKEN', () => {
    expect(resolveOptions({ baseUrl: 'http://x', apiKey: 'pk_x', controlToken: 'a' }, {}).controlToken).toBe('a');
    expect(resolveOptions({ baseUrl: 'http://x', apiKey: 'pk_x' }, { STABLEPAY_CONTROL_TOKEN: 'b' }).controlToken).toBe('b');
    expect(resolveOptions({ baseUrl: 'http://x', apiKey: 'pk_x' }, {}).controlToken).toBeUndefined();
  });

  it('with the token a check that needs the control API runs and passes; the token is in no report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-token-'));
    const outcome = await runConformance({
      baseUrl: server.url,
      apiKey: server.simulator.defaultApiKey,
      controlToken: TOKEN,
      only: ['auth.merchant-isolation'],
      webhooks: false,
      seed: 3,
      runs: 2,
      reportDir: dir,
      formats: ['json'],
      write: () => {},
    });
    expect(outcome.result.summary.capabilities.control).toBe(true);
    expect(outcome.result.summary.counts).toMatchObject({ passed: 1, failed: 0 });
    expect(await readFile(join(dir, 'conformance.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('without the token a named control URL is refused as unusable', async () => {
    await expect(
      runConformance({
        baseUrl: server.url,
        apiKey: server.simulator.defaultApiKey,
        controlUrl: `${server.url}/control/v1`,
        only: ['auth.merchant-isolation'],
        webhooks: false,
        formats: ['json'],
        reportDir: await mkdtemp(join(tmpdir(), 'cf-token-')),
        write: () => {},
      }),
    ).rejects.toThrow(ConfigError);
  });
});
