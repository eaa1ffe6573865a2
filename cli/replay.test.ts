// Issue 27's "each reproduction in a report with three injected faults runs as printed": a whole conformance run
// against a simulator with three faults of different kinds (a pagination cursor off by one, a title over 255
// characters accepted, a cancel answering the stale payment), then every failed check's replay line, read from the
// report and run by a shell exactly as printed (a `stablepay` on PATH), with only the secrets the report says to
// export: against the faulty simulator it reproduces (exit 1, the recorded finding again, what was sent and came
// back); against a correct one it does not (exit 0). No report and no replay output holds a secret.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import type { CheckResult, RunResult } from '@stablepay/conformance';
import { runBin, type BinResult } from './test-support/run-bin.ts';

const KEY = 'pk_replaytest0123456789';
const FAULTS = ['list-cursor-skips-item', 'title-truncated-not-refused', 'cancel-returns-stale-payment'];
const quiet = { info() {}, error() {} };
const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
/** The run's key, and anything shaped like a whole API key or webhook secret (a key's 8-character prefix is shown). */
const SECRET_SHAPES = [new RegExp(KEY), /pk_[A-Za-z0-9]{16,}/, /whsec_[A-Za-z0-9]{8,}/];

let faulty: RunningServer;
let correct: RunningServer;
let dir: string;
let run: BinResult;
let report: RunResult;

/** Runs one printed line in a shell, in the directory the run was made from, with `stablepay` on PATH. */
function shell(line: string, env: Record<string, string>): Promise<BinResult> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_BASE_URL: '', PATH: `${join(dir, 'bin')}:${process.env.PATH}`, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  [faulty, correct] = await Promise.all([
    startServer({ port: 0, defaultApiKey: KEY, logger: quiet, faults: FAULTS }),
    startServer({ port: 0, defaultApiKey: KEY, logger: quiet }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'stablepay-replay-'));
  const shim = join(dir, 'bin');
  mkdirSync(shim);
  writeFileSync(join(shim, 'stablepay'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  chmodSync(join(shim, 'stablepay'), 0o755);
  // The report directory as a person gives it, relative: the replay lines name it as given. The run covers the areas
  // the faults break and the cross-cutting checks, not the webhook-timing and rate-limit-window checks: on a loaded
  // machine those can fail once without any fault, and such a failure need not recur when replayed.
  run = await shell(
    `stablepay conformance --base-url ${faulty.url} --seed 11 --only pagination,create,lifecycle,response,format --report-dir reports --no-progress`,
    { STABLEPAY_API_KEY: KEY },
  );
  report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance.json'), 'utf8')) as RunResult;
}, 600_000);

afterAll(async () => {
  await Promise.all([faulty?.close(), correct?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const failedChecks = (): CheckResult[] => report.checks.filter((c) => c.result === 'fail' || c.result === 'warn');

describe('stablepay replay: the reproductions of a report with three injected faults run as printed', () => {
  it('the run fails the checks of the three faults, and every failed check carries a short replay line and what it needs', () => {
    expect(run.code, run.stderr).toBe(1);
    const failed = failedChecks().map((c) => c.id);
    expect(failed).toEqual(expect.arrayContaining(['pagination.cursor-walk', 'create.field-rules', 'lifecycle.cancel']));
    for (const check of failedChecks()) {
      expect(check.replay?.command, check.id).toBe(`stablepay replay reports/conformance.json --check ${check.id}`);
      expect(check.replay?.needs.map((n) => n.variable)).toEqual(['STABLEPAY_API_KEY']);
      // The same line in every report a person reads.
      expect(run.stdout).toContain(`replay: ${check.replay!.command}`);
      expect(readFileSync(join(dir, 'reports', 'conformance.md'), 'utf8')).toContain(check.replay!.command!);
      expect(readFileSync(join(dir, 'reports', 'conformance.html'), 'utf8')).toContain(check.replay!.command!);
      expect(readFileSync(join(dir, 'reports', 'junit.xml'), 'utf8')).toContain(check.replay!.command!);
    }
  });

  it('carries one seed: the run seed, on every check, and no seed of its own on any counterexample', () => {
    expect((report as unknown as { schemaVersion: number }).schemaVersion).toBe(2);
    expect(report.summary.seed).toBe(11);
    for (const check of report.checks) if (check.seed !== undefined) expect(check.seed, check.id).toBe(11);
    for (const failure of report.failures) expect(failure.fastCheck ?? {}, failure.checkId).not.toHaveProperty('seed');
    const html = readFileSync(join(dir, 'reports', 'conformance.html'), 'utf8');
    expect(new Set([...html.matchAll(/seed (\d+)/g)].map((m) => m[1]))).toEqual(new Set(['11']));
  });

  it('writes no secret into any report, and says which curl lines cannot run as printed', () => {
    for (const file of ['conformance.json', 'conformance.html', 'conformance.md', 'junit.xml'])
      for (const shape of SECRET_SHAPES) expect(readFileSync(join(dir, 'reports', file), 'utf8'), file).not.toMatch(shape);
    for (const shape of SECRET_SHAPES) expect(run.stdout).not.toMatch(shape);
    // The run acted as a merchant of its own (control API): its curl lines name that merchant's key, never shown.
    const cancel = report.failures.find((f) => f.checkId === 'lifecycle.cancel')!;
    expect(cancel.reproduction).toMatch(/\$MERCHANT_\d+_API_KEY/);
    expect(run.stdout).toMatch(/as sent: MERCHANT_\d+_API_KEY is the suite's own and never revealed/);
  });

  it('each replay line, run as printed, reproduces against the faulty simulator and not against a correct one', async () => {
    const checks = failedChecks();
    expect(checks.length).toBeGreaterThanOrEqual(3);
    for (const check of checks) {
      const line = check.replay!.command!;
      // The same line against a correct implementation (STABLEPAY_BASE_URL, as --help says) at the same time.
      const [again, fixed] = await Promise.all([
        shell(line, { STABLEPAY_API_KEY: KEY }),
        shell(line, { STABLEPAY_API_KEY: KEY, STABLEPAY_BASE_URL: correct.url }),
      ]);
      expect(again.code, `${line}\n${again.stdout}\n${again.stderr}`).toBe(1);
      expect(again.stdout).toMatch(/^REPRODUCED: /m);
      const replayed = again.stdout.slice(again.stdout.indexOf(`replayed ${check.id}:`));
      for (const failure of check.failures) expect(replayed, check.id).toContain(`[${failure.requirement}] ${failure.title}`);
      // What was sent and what came back, for a finding about one call.
      if (check.failures.some((f) => f.exchange)) expect(replayed).toMatch(/sent: {6}\w+ http:\/\/.*\n(.*\n)?.*came back: \d{3} /);
      for (const shape of SECRET_SHAPES) expect(again.stdout + again.stderr, check.id).not.toMatch(shape);

      // Against the correct one it does not reproduce.
      expect(fixed.code, `${line} against a correct simulator\n${fixed.stdout}\n${fixed.stderr}`).toBe(0);
      expect(fixed.stdout).toMatch(new RegExp(`^NOT REPRODUCED: ${check.id.replace('.', '\\.')} passed`, 'm'));
    }
  }, 900_000);

  it('usage errors are one sentence plus the hint, exit 2; a check that passed has nothing to replay', async () => {
    const noCheck = await runBin(['replay', join(dir, 'reports')]);
    expect(noCheck.code).toBe(2);
    expect(noCheck.stderr.trim().split('\n')).toEqual([
      'stablepay replay: --check <id> is required: the failed check to replay (its replay line names it)',
      '(add --help for usage)',
    ]);
    const passed = report.checks.find((c) => c.result === 'pass')!;
    const nothing = await runBin(['replay', join(dir, 'reports'), '--check', passed.id], { STABLEPAY_API_KEY: KEY });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(`${passed.id} passed in ${join(dir, 'reports', 'conformance.json')}: there is no failure to replay`);
    const missing = await runBin(['replay', join(dir, 'nowhere.json'), '--check', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toMatch(/nowhere\.json: cannot read \(ENOENT\)$/);
    const noKey = await runBin(['replay', join(dir, 'reports'), '--check', 'lifecycle.cancel']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/--api-key is required \(or set STABLEPAY_API_KEY\)/);
  });
});
