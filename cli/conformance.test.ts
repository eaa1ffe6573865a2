// The CLI as a user runs it (bin/stablepay.js): exit codes 0 / 2, flags parsed from the declarations,
// the console summary's last line, and the key never echoed.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import { freePort } from '@stablepay/conformance/test-support/prism';
import { startSimulator } from '@stablepay/conformance/test-support/simulator';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function stablepay(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/stablepay.js', 'conformance', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('stablepay conformance (CLI)', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startSimulator();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('prints help with every declared flag and exits 0', async () => {
    const { code, stdout } = await stablepay(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--base-url',
      '--api-key',
      '--control-url',
      '--webhook-listen',
      '--webhook-public-url',
      '--strict',
      '--only',
      '--skip',
      '--seed',
      '--runs',
      '--report-dir',
      '--format',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('exits 2 on usage errors', async () => {
    const bad = await Promise.all([
      stablepay(['--base-url', 'http://127.0.0.1:1', '--api-key', 'pk_x', '--format', 'pdf']),
      stablepay(['--base-url', 'not a url', '--api-key', 'pk_x']),
      stablepay(['--base-url', 'http://127.0.0.1:1', '--api-key', 'pk_x', '--runs', '0']),
      stablepay(['--base-url', 'http://127.0.0.1:1', '--api-key', 'pk_x', '--only', 'no-such-check']),
      stablepay(['--base-url', 'http://127.0.0.1:1']),
      stablepay(['--bogus-flag']),
    ]);
    expect(bad.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(bad[0]!.stderr).toMatch(/unknown format "pdf"/);
    expect(bad[3]!.stderr).toMatch(/no check matches no-such-check/);
    expect(bad[4]!.stderr).toMatch(/--api-key is required/);
  });

  it('exits 2 when the base URL is unreachable', async () => {
    const port = await freePort();
    const { code, stderr } = await stablepay(['--base-url', `http://127.0.0.1:${port}`, '--format', 'console'], {
      STABLEPAY_API_KEY: 'pk_unreachable',
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/base URL unreachable/);
  });

  it('exits 2 when the implementation refuses the key', async () => {
    const { code, stderr } = await stablepay([
      '--base-url',
      server.url,
      '--api-key',
      'pk_notAKeyOfThisSimulator0001',
      '--format',
      'console',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/refused the API key/);
  });

  it('runs selected checks, writes the chosen reports and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-cli-'));
    const key = server.simulator.defaultApiKey;
    const { code, stdout, stderr } = await stablepay(
      [
        '--base-url',
        server.url,
        '--only',
        'lifecycle.cancel,auth.unknown-key,response',
        '--seed',
        '7',
        '--runs',
        '3',
        '--report-dir',
        dir,
        '--format',
        'console,json',
        '--no-webhooks',
      ],
      { STABLEPAY_API_KEY: key },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('3 passed, 0 failed');
    expect(lines.at(-2)).toMatch(/^0 warned, 0 not exercised, \d+ skipped$/);
    expect(stdout).toContain('seed 7');
    const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8'));
    expect(json.summary.seed).toBe(7);
    expect(stdout + JSON.stringify(json)).not.toContain(key);
  });
});
