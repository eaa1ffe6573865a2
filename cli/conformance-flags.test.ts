// Every flag of `stablepay conformance`, run through the real CLI (bin/stablepay.js, built by the global setup):
// each is accepted and has its effect, and a bad value ends with one sentence and exit 2. Targets: the simulator
// in-process (instant settlement), one healthy and one with injected faults, and a header-checking gateway in
// front of the healthy one. The last test fails when a declared flag has no test here.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTION_DECLARATIONS } from '@stablepay/conformance/options';
import { TARGET_ENVIRONMENT } from '@stablepay/conformance/black-box-options';
import { freePort } from '@stablepay/conformance/test-support/prism';
import { startBrokenServer } from '@stablepay/conformance/test-support/broken-servers';
import { quietLogger } from '@stablepay/conformance/test-support/simulator';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { longFlag } from './config-file.ts';

const BIN = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const KEY = 'pk_cliflagsHealthy000000000001';
const FAULTY_KEY = 'pk_cliflagsFaulty0000000000001';
const CONTROL_TOKEN = 'ct_cliflagsControlToken0000000001';
const GATEWAY_TOKEN = 'gw-secret-token-0001';
const FAST = 'auth.unknown-key';

/** Flags the tests below exercised, checked against the declarations at the end. */
const exercised = new Set<string>();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  cwd: string;
}

function stablepay(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  for (const arg of args) if (arg.startsWith('-')) exercised.add(arg.split('=')[0]!);
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'cf-flags-'));
  return new Promise((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    delete env.STABLEPAY_API_KEY;
    if (options.env?.STABLEPAY_API_KEY) env.STABLEPAY_API_KEY = options.env.STABLEPAY_API_KEY;
    const child = spawn(process.execPath, [BIN, 'conformance', ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr, cwd }));
  });
}

const json = (run: Run) =>
  JSON.parse(run.stdout) as {
    summary: Record<string, unknown>;
    checks: { id: string; result: string; reason?: string; failures: { severity: string }[] }[];
    premises?: { id: string }[];
  };

describe('stablepay conformance: every flag through the real CLI', () => {
  let healthy: RunningServer;
  let faulty: RunningServer;
  let tokenised: RunningServer;
  let gateway: Server;
  let gatewayUrl: string;
  const seenHeaders: string[] = [];

  beforeAll(async () => {
    [healthy, faulty, tokenised] = await Promise.all([
      startServer({ port: 0, logger: quietLogger, defaultApiKey: KEY }),
      startServer({
        port: 0,
        logger: quietLogger,
        defaultApiKey: FAULTY_KEY,
        faults: ['unknown-key-403', 'list-limit-unbounded', 'fee-binary-float'],
      }),
      startServer({ port: 0, logger: quietLogger, defaultApiKey: KEY, controlToken: CONTROL_TOKEN }),
    ]);
    // A gateway that refuses every request without its token, as one in front of a sandbox would.
    const target = new URL(healthy.url);
    gateway = createServer((req, res) => {
      const token = req.headers['x-gateway-token'];
      seenHeaders.push(String(token));
      if (token !== GATEWAY_TOKEN) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"gateway token missing"}');
        return;
      }
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await Promise.all([healthy?.close(), faulty?.close(), tokenised?.close(), new Promise((resolve) => gateway?.close(resolve))]);
  });

  it('--base-url, --api-key, --only, --seed, --runs, --format json without --report-dir: the JSON report on stdout, no file', async () => {
    const run = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--seed',
      '11',
      '--runs',
      '3',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    const report = json(run);
    expect(report.summary.seed).toBe(11);
    expect(report.summary.runs).toBe(3);
    expect(report.summary.baseUrl).toBe(healthy.url);
    expect(report.checks.filter((c) => c.result === 'pass').map((c) => c.id)).toEqual([FAST]);
    expect(existsSync(join(run.cwd, 'reports'))).toBe(false);
    expect(run.stdout).not.toContain(KEY);
  });

  it('--report-dir and --format write exactly the chosen files; console lists them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-flags-dir-'));
    const run = await stablepay(['--base-url', healthy.url, '--only', FAST, '--report-dir', dir, '--format', 'console,junit,md'], {
      env: { STABLEPAY_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    expect(['junit.xml', 'conformance.md', 'conformance.json', 'conformance.html'].map((f) => existsSync(join(dir, f)))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(run.stdout).toContain(`reports: ${join(dir, 'junit.xml')}`);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed');
  });

  it('--format ndjson streams one JSON event per check, then a summary with the exit code', async () => {
    const run = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      'auth.unknown-key,auth.missing-credentials',
      '--format',
      'ndjson',
    ]);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['start', 'check', 'check', 'summary']);
    expect(
      events
        .filter((e) => e.type === 'check')
        .map((e) => e.id)
        .sort(),
    ).toEqual(['auth.missing-credentials', 'auth.unknown-key']);
    expect(events.at(-1).exitCode).toBe(0);
    const both = await stablepay(['--base-url', healthy.url, '--api-key', KEY, '--format', 'console,ndjson']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: --format: console and ndjson both write to stdout; choose one\n');
  });

  it('--skip and --no-progress: the skipped check is reported with its reason, no progress lines', async () => {
    const run = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      'auth',
      '--skip',
      FAST,
      '--no-progress',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(json(run).checks.find((c) => c.id === FAST)!.result).toBe('skipped');
    const quiet = await stablepay(['--base-url', healthy.url, '--api-key', KEY, '--only', FAST, '--no-progress', '--format', 'console']);
    expect(quiet.stdout).not.toMatch(/^\[1\/1\]/m);
    const loud = await stablepay(['--base-url', healthy.url, '--api-key', KEY, '--only', FAST, '--format', 'console']);
    expect(loud.stdout).toMatch(/^\[1\/1\] PASS auth\.unknown-key/m);
  });

  it('--webhook-listen HOST:PORT listens there; --webhook-public-url is what the implementation is told; bad values exit 2', async () => {
    const port = await freePort();
    const run = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--webhook-listen',
      `127.0.0.1:${port}`,
      '--format',
      'console',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`note: webhook receiver at http://127.0.0.1:${port}`);
    const equals = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      `--webhook-listen=localhost:${port}`,
      '--format',
      'console',
    ]);
    expect(equals.code).toBe(0);
    const pub = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--webhook-public-url',
      'http://receiver.example:8080/hooks',
      '--format',
      'console',
    ]);
    expect(pub.stdout).toContain('note: webhook receiver at http://receiver.example:8080/hooks');
    const bad = await stablepay(['--base-url', healthy.url, '--api-key', KEY, '--webhook-listen', 'no-port']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--webhook-listen: expected HOST:PORT, got "no-port"/);
  });

  it('--no-webhooks, --no-control, --control-url and --control-token change the capabilities', async () => {
    const off = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--no-webhooks',
      '--no-control',
      '--format',
      'console',
    ]);
    expect(off.stdout).toContain('capabilities: control: no, webhook-receiver: no');
    expect(off.stdout).toContain('note: control API disabled (--no-control)');
    const explicit = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--control-url',
      `${healthy.url}/control/v1`,
      '--format',
      'console',
    ]);
    expect(explicit.stdout).toContain('capabilities: control: yes');
    const wrong = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--control-url',
      `${healthy.url}/nothing-here`,
      '--format',
      'console',
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^error: control API unusable/);
    const noToken = await stablepay(['--base-url', tokenised.url, '--api-key', KEY, '--only', FAST, '--format', 'console']);
    expect(noToken.stdout).toContain('capabilities: control: no');
    const withToken = await stablepay([
      '--base-url',
      tokenised.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--control-token',
      CONTROL_TOKEN,
      '--format',
      'console',
    ]);
    expect(withToken.stdout).toContain('capabilities: control: yes');
    expect(withToken.stdout).not.toContain(CONTROL_TOKEN);
  });

  it('--strict turns warnings of assumed requirements into failures', async () => {
    const args = ['--base-url', faulty.url, '--api-key', FAULTY_KEY, '--only', 'pagination.limit-bounds', '--format', 'json'];
    const normal = json(await stablepay(args));
    const strict = json(await stablepay([...args, '--strict']));
    expect(normal.checks[0]!.failures.map((f) => f.severity)).toContain('warn');
    expect(strict.checks[0]!.failures.map((f) => f.severity)).not.toContain('warn');
    expect(strict.checks[0]!.failures.length).toBe(normal.checks[0]!.failures.length);
  });

  it('-x and --max-failures stop after that many failed checks, report the rest as skipped and exit 1', async () => {
    const only = ['--base-url', faulty.url, '--api-key', FAULTY_KEY, '--only', 'auth,pagination.limit-bounds', '--no-webhooks'];
    const x = await stablepay([...only, '-x', '--format', 'console']);
    expect(x.code).toBe(1);
    // Where the failing check comes in the run order is the scheduler's business; nothing starts after it.
    const failedAt = Number(x.stdout.match(/^\[(\d)\/7\] FAIL auth\.malformed-credentials/m)?.[1]);
    expect(failedAt).toBeGreaterThan(0);
    expect(x.stdout).toMatch(
      new RegExp(`^stopped: not run: the run stopped after 1 failed check \\(--max-failures 1\\); ${7 - failedAt} checks not run$`, 'm'),
    );
    expect(x.stdout).not.toMatch(new RegExp(`^\\[${failedAt + 1}\\/7\\]`, 'm'));
    const two = json(await stablepay([...only, '--max-failures', '2', '--format', 'json']));
    expect(two.checks.filter((c) => c.result === 'fail').map((c) => c.id)).toEqual(['auth.malformed-credentials', 'auth.unknown-key']);
    const notRun = two.checks.filter((c) => c.reason?.startsWith('not run: the run stopped after 2 failed checks')).length;
    expect(notRun).toBeGreaterThan(0);
    // Of the 7 checks --only selects, those that did not run are the ones the stop reported.
    expect(notRun).toBe(7 - two.checks.filter((c) => c.result !== 'skipped').length);
    const bad = await stablepay([...only, '--max-failures', '0']);
    expect(bad.code).toBe(2);
    // -x in the configuration file, --max-failures on the command line: the command line wins.
    const dir = mkdtempSync(join(tmpdir(), 'cf-flags-x-'));
    writeFileSync(join(dir, 'stablepay.config.json'), JSON.stringify({ failFast: true }));
    const fromFile = json(await stablepay([...only, '--format', 'json'], { cwd: dir }));
    expect(fromFile.checks.filter((c) => c.result === 'fail')).toHaveLength(1);
    const overridden = json(await stablepay([...only, '--max-failures', '2', '--format', 'json'], { cwd: dir }));
    expect(overridden.checks.filter((c) => c.result === 'fail')).toHaveLength(2);
  });

  it('--workers runs checks side by side and says so; the report lists them in plan order; 0 exits 2', async () => {
    const args = ['--base-url', healthy.url, '--api-key', KEY, '--only', 'auth,versioning', '--no-webhooks'];
    const side = await stablepay([...args, '--workers', '3', '--format', 'console']);
    expect(side.code).toBe(0);
    expect(side.stdout).toMatch(/^stablepay conformance: \d+ checks, seed \d+, up to 3 at once$/m);
    expect(side.stdout).toMatch(/^ {8}… started \S+ \(\d running: /m);
    const one = json(await stablepay([...args, '--workers', '1', '--format', 'json', '--seed', '5']));
    const three = json(await stablepay([...args, '--workers', '3', '--format', 'json', '--seed', '5']));
    expect(three.checks.map((c) => [c.id, c.result])).toEqual(one.checks.map((c) => [c.id, c.result]));
    expect((await stablepay([...args, '--workers', '0'])).code).toBe(2);
  });

  it('-H adds a header to every request (a gateway token), never written into the report; a bad line exits 2', async () => {
    const refused = await stablepay(['--base-url', gatewayUrl, '--api-key', KEY, '--only', FAST, '--no-control', '--format', 'console']);
    expect(refused.code).toBe(2);
    seenHeaders.length = 0;
    const run = await stablepay([
      '--base-url',
      gatewayUrl,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--no-control',
      '-H',
      `X-Gateway-Token: ${GATEWAY_TOKEN}`,
      '--header',
      'X-Trace: r16',
      '--format',
      'json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(seenHeaders.length).toBeGreaterThan(3);
    expect(new Set(seenHeaders)).toEqual(new Set([GATEWAY_TOKEN]));
    expect(run.stdout).not.toContain(GATEWAY_TOKEN);
    const bad = await stablepay(['--base-url', gatewayUrl, '--api-key', KEY, '-H', 'no colon here']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      `error: option '-H, --header <line>' argument 'no colon here' is invalid. --header: expected 'Name: value', got "no colon here"`,
    );
  });

  it('--replay replays the recorded counterexample of a failed property; --list lists the checks', async () => {
    const list = await stablepay(['--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^auth\.unknown-key\s/m);
    const args = [
      '--base-url',
      faulty.url,
      '--api-key',
      FAULTY_KEY,
      '--only',
      'fees.split-properties',
      '--seed',
      '3',
      '--no-webhooks',
      '--format',
      'json',
    ];
    const first = json(await stablepay(args)).checks[0] as unknown as {
      cases: number;
      failures: { fastCheck: { property: string; path: string; counterexample: string } }[];
    };
    const recorded = first.failures[0]!.fastCheck;
    const replayArg = `${recorded.property}=${recorded.path}`;
    const again = json(await stablepay([...args, '--replay', replayArg])).checks[0] as unknown as typeof first;
    expect(again.failures[0]!.fastCheck.counterexample).toBe(recorded.counterexample);
    expect(again.cases).toBeLessThan(first.cases);
    const bad = await stablepay(['--base-url', healthy.url, '--api-key', KEY, '--replay', 'no-equals-sign']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--replay: expected <checkId>\/<property>=<path>/);
  });

  it('--config (and stablepay.config.* in the current directory): flags from the file, the command line wins, bad keys name file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-flags-config-'));
    writeFileSync(
      join(dir, 'stablepay.config.yaml'),
      `baseUrl: ${healthy.url}\napi-key: ${KEY}\nonly: [${FAST}]\nseed: 5\nformat: json\nno-webhooks: true\n`,
    );
    const implicit = json(await stablepay([], { cwd: dir }));
    expect(implicit.summary.seed).toBe(5);
    expect(implicit.summary.capabilities).toMatchObject({ 'webhook-receiver': false });
    const overridden = json(await stablepay(['--seed', '6'], { cwd: dir }));
    expect(overridden.summary.seed).toBe(6);
    const other = join(dir, 'ci.json');
    writeFileSync(
      other,
      JSON.stringify(
        { 'base-url': healthy.url, apiKey: KEY, only: FAST, seed: 8, formats: ['json'], header: { 'X-Trace': 'cfg' } },
        null,
        2,
      ),
    );
    expect(json(await stablepay(['--config', other], { cwd: dir })).summary.seed).toBe(8);
    writeFileSync(join(dir, 'bad.yaml'), `baseUrl: ${healthy.url}\nbse-url: x\n`);
    const unknown = await stablepay(['--config', 'bad.yaml'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `error: ${join(dir, 'bad.yaml')}:2: unknown key "bse-url" (any flag of stablepay conformance --help, camelCase or as written)\n`,
    );
    writeFileSync(join(dir, 'bad.json'), '{\n  "runs": 0\n}\n');
    const value = await stablepay(['--config', 'bad.json'], { cwd: dir });
    expect(value.code).toBe(2);
    expect(value.stderr).toBe(`error: ${join(dir, 'bad.json')}:2: --runs: "0" is out of range\n`);
    const missing = await stablepay(['--config', 'nope.yaml'], { cwd: dir });
    expect(missing.stderr).toBe('error: --config: nope.yaml does not exist\n');
    expect(missing.code).toBe(2);
  });

  it('--profile reads a profile file; a bad one exits 2 naming file and line; --help lists every variable a target gets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-profile-'));
    writeFileSync(join(dir, 'profile.yaml'), 'listItemKey: data\nwebhooks:\n  testWithApiKey: true\n');
    const declared = json(
      await stablepay([
        '--base-url',
        healthy.url,
        '--api-key',
        KEY,
        '--only',
        FAST,
        '--format',
        'json',
        '--profile',
        join(dir, 'profile.yaml'),
      ]),
    );
    expect(declared.premises?.map((p) => p.id)).toEqual(expect.arrayContaining(['list.item-key', 'webhooks.test-with-api-key']));
    writeFileSync(join(dir, 'bad.yaml'), 'listItemKey: data\nwebhook:\n  testWithApiKey: true\n');
    const bad = await stablepay(['--base-url', healthy.url, '--api-key', KEY, '--profile', join(dir, 'bad.yaml')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.startsWith(`error: ${join(dir, 'bad.yaml')}:2: profile.webhook: unknown key "webhook"`)).toBe(true);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const help = await stablepay(['--help']);
    for (const { name } of TARGET_ENVIRONMENT) expect(help.stdout).toContain(name);
  });

  it('--sign, --sign-key and --record: a signed manifest that verify-report accepts, and a HAR of the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-sign-'));
    const har = join(dir, 'traffic.har');
    const signed = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--report-dir',
      dir,
      '--format',
      'json',
      '--sign',
      '--record',
      har,
    ]);
    expect(signed.code, signed.stderr).toBe(0);
    expect(existsSync(join(dir, 'manifest.jws'))).toBe(true);
    const entries = (
      JSON.parse(readFileSync(har, 'utf8')) as {
        log: { entries: { request: { url: string; headers: { name: string; value: string }[] } }[] };
      }
    ).log.entries;
    expect(entries.some((e) => e.request.url.startsWith(healthy.url))).toBe(true);
    expect(readFileSync(har, 'utf8')).not.toContain(KEY);
    const verify = (args: string[]) =>
      new Promise<number | null>((resolve) =>
        spawn(process.execPath, [BIN, 'verify-report', dir, ...args], { stdio: 'ignore' }).on('exit', resolve),
      );
    expect(await verify(['--public-key', join(dir, 'signing-key.pub.pem')])).toBe(0);
    // --sign-key with a key file: the same manifest, signed by that key; an unreadable key file is exit 2.
    const { generateKeyPairSync } = await import('node:crypto');
    const keyFile = join(dir, 'ed25519.pem');
    writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const other = mkdtempSync(join(tmpdir(), 'cf-signkey-'));
    const withKey = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--report-dir',
      other,
      '--format',
      'json',
      '--sign-key',
      keyFile,
    ]);
    expect(withKey.code, withKey.stderr).toBe(0);
    expect(existsSync(join(other, 'manifest.jws'))).toBe(true);
    const missingKey = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      FAST,
      '--sign-key',
      join(dir, 'no-such.pem'),
    ]);
    expect(missingKey.code).toBe(2);
    expect(missingKey.stderr).toContain('no-such.pem');
  });

  it('target flags reach the black-box layer: each one has its effect or its one-sentence refusal', async () => {
    const base = ['--api-key', KEY, '--only', FAST, '--format', 'json'];
    const noLib = await stablepay([...base, '--target-command', 'true', '--faketime', '/nonexistent/libfaketimeMT.so.1']);
    expect(noLib.code).toBe(2);
    expect(noLib.stderr).toMatch(/^error: libfaketime is not installed \(looked for \/nonexistent\/libfaketimeMT\.so\.1\)/);
    // A target that never answers over HTTP becomes "ready" by its log line (--target-wait log:), and only when
    // --target-env gave it the variable; then the run fails on the unreachable port it was told (--target-port).
    const port = await freePort();
    const command = '[ "$R16" = yes ] && echo READY; exec sleep 30';
    const ready = await stablepay([
      ...base,
      '--target-command',
      command,
      '--no-faketime',
      '--target-env',
      'R16=yes',
      '--target-wait',
      'log:READY',
      '--target-port',
      String(port),
      '--target-start-timeout',
      '5',
    ]);
    const notReady = await stablepay([
      ...base,
      '--target-command',
      command,
      '--no-faketime',
      '--target-wait',
      'log:READY',
      '--target-start-timeout',
      '1',
    ]);
    expect([ready.code, notReady.code]).toEqual([2, 2]);
    expect(ready.stderr).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}`));
    expect(notReady.stderr).not.toEqual(ready.stderr);
    expect(notReady.stderr).toMatch(/1 s/);
    const image = await stablepay([...base, '--target-image', 'stablepay-no-such-image:r16b', '--no-faketime', '--reaper']);
    expect(image.code).toBe(2);
    // Progress of the black-box start (on stderr: stdout carries the JSON report), then one sentence.
    expect(
      image.stderr
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('error: ')),
    ).toHaveLength(1);
    // With a container runtime the missing image is named; without one (a machine with Node alone) the refusal says
    // there is none for --target-image. Either way the flag reached the image path and ended in one sentence.
    expect(image.stderr.trim().split('\n').at(-1)).toMatch(
      /^error: (.*stablepay-no-such-image:r16b|no container runtime is reachable for --target-image \(is dockerd running\?\))/,
    );
    expect(image.stdout).toBe('');
    // Spare instances need ports of their own: with a fixed port, more than one is refused before anything starts.
    const instances = await stablepay([
      ...base,
      '--target-command',
      'true',
      '--no-faketime',
      '--target-port',
      String(port),
      '--instances',
      '2',
    ]);
    expect(instances.code).toBe(2);
    expect(instances.stderr).toMatch(/^error: --instances 2: each instance listens on a port of its own/);
    const second = await stablepay(['--base-url', healthy.url, ...base, '--second-api-key', KEY]);
    expect(second.stderr).toBe("error: --second-api-key must be another merchant's key, not the --api-key\n");
    // The browser customer's flags: a page contract that cannot be read is refused before anything starts, unless
    // --no-customer turns the customer off (then the run goes on to start the target, here a command that exits).
    const contract = await stablepay([...base, '--target-command', 'exit 4', '--no-faketime', '--page-contract', '/nonexistent/page.json']);
    expect(contract.code).toBe(2);
    expect(contract.stderr).toMatch(/^error: --page-contract: cannot read \/nonexistent\/page\.json as JSON/m);
    const noCustomer = await stablepay([
      ...base,
      '--target-command',
      'exit 4',
      '--no-faketime',
      '--no-customer',
      '--page-contract',
      '/nonexistent/page.json',
    ]);
    expect(noCustomer.code).toBe(2);
    expect(noCustomer.stderr).toMatch(/the target command exited \(code 4\)/);
    const parallel = await stablepay([...base, '--target-command', 'true', '--customer-parallel', '0']);
    expect(parallel.code).toBe(2);
    expect(parallel.stderr).toMatch(/--customer-parallel/);
    // Its effect (a payment that never settles fails after that long) is shown in conformance/customer/never-settling.test.ts.
    const settle = await stablepay([...base, '--target-command', 'true', '--customer-settle-timeout', '0']);
    expect(settle.code).toBe(2);
    expect(settle.stderr).toMatch(/--customer-settle-timeout: "0" is not a positive duration in seconds/);
    const fork = await stablepay([...base, '--target-command', 'true', '--fork', 'mainnet']);
    expect(fork.code).toBe(2);
    expect(fork.stderr).toMatch(/--fork: expected <chainId>=<http\(s\) URL>, got "mainnet"/);
    // A dozen CLI runs one after another: over 60 s on a loaded 2-core machine.
  }, 240_000);

  it('--target-command with --format ndjson: the suite starts the simulator, stdout stays pure JSON lines (its log goes to stderr)', async () => {
    const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} start --no-control --no-demo-payment`;
    const run = await stablepay(['--target-command', command, '--no-faketime', '--only', FAST, '--format', 'ndjson']);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; result?: string });
    expect(events.map((e) => e.type)).toEqual(['start', 'check', 'summary']);
    expect(events[1]!.result).toBe('pass');
    expect(run.stderr).toContain('starting the target');
    // The target's own log is kept beside the reports, as in every black-box run.
    expect(existsSync(join(run.cwd, 'reports', 'conformance', 'target.log'))).toBe(true);
  });

  it('--require-coverage and --require: an unmet gate exits 1 though no check failed, and says why; bad values exit 2', async () => {
    const base = ['--base-url', healthy.url, '--api-key', KEY, '--format', 'console', '--no-progress', '--no-webhooks'];
    const low = await stablepay([...base, '--only', FAST, '--require-coverage', '50']);
    expect(low.code).toBe(1);
    expect(low.stdout).toMatch(
      /\ngate: NOT MET \(exit 1\)\n {2}--require-coverage 50: the run exercised \d+ of \d+ documented requirements \(\d+(\.\d)? %\)\n/,
    );
    expect(low.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed');
    const met = await stablepay([...base, '--only', FAST, '--require-coverage', '0', '--require', FAST]);
    expect(met.code).toBe(0);
    expect(met.stdout).toContain('\ngate: met\n');
    // A required check that could not run (no browser customer without a black-box target) is unmet, never a pass.
    const unrun = await stablepay([...base, '--only', `${FAST},customer.settles`, '--require', 'customer.settles']);
    expect(unrun.code).toBe(1);
    expect(unrun.stdout).toContain('  --require customer.settles: customer.settles not-exercised (a required check must pass)\n');
    const bad = await stablepay([...base, '--require-coverage', '101']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--require-coverage: "101" is not a percentage between 0 and 100');
    const unknown = await stablepay([...base, '--only', FAST, '--require', 'nope.nothing']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe('error: --require: no check matches nope.nothing (see --list)');
  });
  it('--request-timeout, --max-response-bytes and --max-run-time: stated in the report, each with its effect; bad values exit 2', async () => {
    const stated = json(
      await stablepay([
        '--base-url',
        healthy.url,
        '--api-key',
        KEY,
        '--only',
        FAST,
        '--request-timeout',
        '7',
        '--max-response-bytes',
        '2M',
        '--max-run-time',
        '10m',
        '--format',
        'json',
      ]),
    );
    expect(stated.summary.limits).toEqual({ requestTimeoutMs: 7000, maxResponseBytes: 2 * 1024 * 1024, maxRunTimeMs: 600_000 });
    const [silent, huge] = await Promise.all([startBrokenServer('no-answer'), startBrokenServer('huge-body')]);
    try {
      const started = performance.now();
      const timedOut = await stablepay(['--base-url', silent.url, '--api-key', KEY, '--request-timeout', '0.5', '--no-control']);
      expect(timedOut.code).toBe(2);
      expect(timedOut.stderr).toMatch(
        /^error: the implementation did not answer the first request: GET \S+: no complete answer within 0\.5 s \(--request-timeout\): no response headers came\n$/,
      );
      expect(performance.now() - started).toBeLessThan(15_000);
      const capped = await stablepay(['--base-url', huge.url, '--api-key', KEY, '--max-response-bytes', '64k', '--no-control']);
      expect(capped.code).toBe(2);
      expect(capped.stderr).toMatch(/answered 200 with a body over 64 KiB \(--max-response-bytes\); the suite stopped reading it\n$/);
    } finally {
      await Promise.all([silent.close(), huge.close()]);
    }
    // The slow-receiver check holds a delivery for 11 s: a 4 s run ends inside it, the cross-cutting check never runs.
    const cut = await stablepay([
      '--base-url',
      healthy.url,
      '--api-key',
      KEY,
      '--only',
      'webhooks.slow-receiver-timeout,response.conformance',
      '--max-run-time',
      '4',
      '--format',
      'json',
    ]);
    expect(cut.code).toBe(2);
    const partial = json(cut);
    expect(partial.summary.interrupted).toMatchObject({ by: 'max-run-time', notRun: ['response.conformance'] });
    expect(partial.checks.find((c) => c.id === 'response.conformance')).toMatchObject({
      result: 'skipped',
      reason: 'not run: the run reached its time limit (--max-run-time 4 s)',
    });
    for (const [flag, value] of [
      ['--request-timeout', '0'],
      ['--max-response-bytes', 'lots'],
      ['--max-run-time', '-5'],
    ]) {
      const bad = await stablepay(['--base-url', healthy.url, '--api-key', KEY, flag!, value!]);
      expect(bad.code).toBe(2);
      expect(bad.stderr.split('\n')[0]).toMatch(
        new RegExp(`^error: option '${flag} <\\w+>' argument '${value}' is invalid\\. ${flag}: "${value}" is not a`),
      );
    }
  }, 60_000);

  it('every declared flag was run through the CLI above', () => {
    const missing = OPTION_DECLARATIONS.flatMap((d) => {
      const short = /^(-[A-Za-z]),/.exec(d.flags)?.[1];
      return exercised.has(longFlag(d)) || (short !== undefined && exercised.has(short)) ? [] : [longFlag(d)];
    });
    expect(missing).toEqual([]);
  });
});
