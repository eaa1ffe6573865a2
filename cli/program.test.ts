// The command line as a user meets it: --version, an example in every subcommand's --help, and exit codes that
// tell a usage error (2) from a runtime failure (1). Runs the built bin (vitest's globalSetup built dist/).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProgram } from './program.ts';

const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function stablepay(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const subcommands = createProgram().commands.map((c) => c.name());

describe('stablepay (command line)', () => {
  it('prints the package version with --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const { code, stdout } = await stablepay([flag]);
      expect(code).toBe(0);
      expect(stdout.trim()).toBe(manifest.version);
    }
  });

  it('lists every subcommand in --help', async () => {
    const { code, stdout } = await stablepay(['--help']);
    expect(code).toBe(0);
    expect(subcommands).toEqual(expect.arrayContaining(['start', 'conformance']));
    for (const name of subcommands) expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it.each(subcommands)('shows an example in `stablepay %s --help`', async (name) => {
    const { code, stdout } = await stablepay([name, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Examples?:$/m);
    expect(stdout).toMatch(new RegExp(`^  \\$ (\\S+=\\S+ )?stablepay ${name}\\b`, 'm'));
  });

  it('exits 2 on usage errors: no subcommand, unknown subcommand or flag, bad flag value', async () => {
    const results = await Promise.all([
      stablepay([]),
      stablepay(['stop']),
      stablepay(['start', '--bogus']),
      stablepay(['start', '--port', 'eighty']),
      stablepay(['start', '--rate-limit', '0']),
      stablepay(['start', '--inject-fault', 'no-such-fault']),
      stablepay(['start', '--pay-url', 'not a url']),
    ]);
    expect(results.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    expect(results[3]!.stderr).toContain('stablepay start: port must be 0..65535, got "eighty"');
    expect(results[5]!.stderr).toContain('no-such-fault');
  });

  it('exits 1 when the simulator cannot start (port in use)', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as AddressInfo;
      const { code, stderr } = await stablepay(['start', '--port', String(port), '--no-chains']);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^stablepay start: .*EADDRINUSE/m);
      expect(stderr).not.toMatch(/^\s+at /m); // one line, no stack trace
    } finally {
      busy.close();
    }
  });
});
