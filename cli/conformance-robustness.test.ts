// The suite survives any server: 14 kinds of broken server (conformance/test-support/broken-servers.ts), each with the
// control API probed at <base>/control/v1 (where the broken server answers as everywhere) and with --no-control, run
// through the real CLI. Each run ends with exit 2 and one sentence, or exit 1 with its reports written; never a stack
// trace or a TypeError; under 400 MB of memory; in bounded time; nothing left running. Then a control API that answers
// its health but breaks later, a check that waits on a dripping response, and an interrupted run's partial reports.
// Deadlines are short for the kinds only a deadline ends (--request-timeout 2; the drip sends a byte a second, so
// only the whole-request deadline can end it); the 200 MB body is read only up to the default cap.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { BROKEN_KINDS, startBrokenServer, type BrokenKind } from '@stablepay/conformance/test-support/broken-servers';
import { runMeasuredCli, type MeasuredRun } from '@stablepay/conformance/test-support/measured-cli';
import { quietLogger } from '@stablepay/conformance/test-support/simulator';

const KEY = 'pk_robustnessTest000000000001';
/** What each kind of server must come to: it cannot be judged (exit 2, one sentence) or it does not conform (exit 1). */
const EXPECTED: Record<BrokenKind, 1 | 2> = {
  'invalid-json': 1,
  'html-page': 1,
  'status-500': 2,
  'no-answer': 2,
  'headers-then-silence': 2,
  'huge-body': 2,
  'connection-closed': 2,
  'redirect-loop': 1,
  'redirect-to-closed-port': 1,
  'slow-drip': 2,
  'empty-200': 1,
  'null-body': 1,
  'tcp-close': 2,
  'non-http-bytes': 2,
};
/**
 * The kinds only a deadline can end get a 2 s one, so the test stays short; the others answer at once and get 10 s, so
 * that on a loaded machine a slow answer from the test's own broken server is not taken for the kind's behaviour.
 */
const WAITED_OUT = new Set<BrokenKind>(['no-answer', 'headers-then-silence', 'slow-drip']);
/** A stack frame as Node prints one. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;
/** Far above the ~150 MB a run takes, far below what reading the 200 MB body (or many) would take. */
const MEMORY_LIMIT = 400 * 1024 * 1024;
/** Generous for a loaded 2-core machine; an unbounded wait (the drip, the held connection) would take minutes. */
const TIME_LIMIT_MS = 60_000;

const reportDir = () => mkdtempSync(join(tmpdir(), 'cf-robust-'));

function tryKill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    return process.kill(pid, signal);
  } catch {
    return false;
  }
}

async function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What every run must show, whatever the server did. */
async function expectClean(run: MeasuredRun): Promise<void> {
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed).toBe(false);
  expect(output).not.toMatch(STACK_FRAME);
  expect(output).not.toContain('TypeError');
  expect(run.peakRssBytes).toBeGreaterThan(0);
  expect(run.peakRssBytes).toBeLessThan(MEMORY_LIMIT);
  expect(run.wallMs).toBeLessThan(TIME_LIMIT_MS);
  expect(run.leftover).toEqual([]);
  // The webhook receiver the run listened on is closed.
  const receiver = /webhook receiver at http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stdout)?.[1];
  if (receiver) expect(await isListening(Number(receiver))).toBe(false);
}

describe.concurrent('stablepay conformance against 14 kinds of broken server', () => {
  for (const kind of BROKEN_KINDS) {
    for (const control of [true, false]) {
      it(`${kind}, control API ${control ? 'probed' : 'off (--no-control)'}: exit ${EXPECTED[kind]}`, async () => {
        const server = await startBrokenServer(kind);
        const dir = reportDir();
        try {
          const args = [
            'conformance',
            '--base-url',
            server.url,
            '--api-key',
            KEY,
            '--report-dir',
            dir,
            '--request-timeout',
            WAITED_OUT.has(kind) ? '2' : '10',
            '--seed',
            '1',
            ...(control ? [] : ['--no-control']),
          ];
          const run = await runMeasuredCli({ args, killAfterMs: 120_000 });
          await expectClean(run);
          expect(run.code, `stderr: ${run.stderr}\nstdout (end): ${run.stdout.slice(-1500)}`).toBe(EXPECTED[kind]);
          if (EXPECTED[kind] === 2) {
            // One sentence on stderr, naming what was wrong; nothing else printed, no report.
            expect(run.stdout).toBe('');
            expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
            expect(run.stderr).toMatch(/GET \/v1\/payments|GET http:\/\/127\.0\.0\.1:\d+\/v1\/payments\?limit=1/);
            expect(existsSync(join(dir, 'conformance.json'))).toBe(false);
          } else {
            const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
              summary: { counts: { failed: number; errors: number } };
              failures: { message: string }[];
            };
            expect(report.summary.counts.failed).toBeGreaterThan(0);
            expect(report.summary.counts.errors).toBe(0);
            expect(JSON.stringify(report.failures)).not.toContain('TypeError');
            for (const file of ['junit.xml', 'conformance.html', 'conformance.md']) expect(existsSync(join(dir, file))).toBe(true);
            expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
            if (control) expect(run.stdout).toMatch(/note: no control API at \S+ \(GET \S+\/health answered/);
          }
        } finally {
          await server.close();
        }
      });
    }
  }
});

/** A minimal service: the preflight passes; the control API answers its health and then `broken` for the rest. */
async function startHalfControl(
  broken: (path: string) => { status: number; type: string; body: string },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v1/payments')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"nextCursor":null,"hasMore":false}');
    if (path === '/control/v1/health')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","chains":[]}');
    const answer = broken(path);
    res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.concurrent('broken scaffolding ends the run with one sentence naming the endpoint', () => {
  it('a control API named with --control-url that answers garbage to its health', async () => {
    const server = await startBrokenServer('html-page');
    try {
      const run = await runMeasuredCli({
        args: [
          'conformance',
          '--base-url',
          server.url,
          '--api-key',
          KEY,
          '--control-url',
          `${server.url}/control/v1`,
          '--report-dir',
          reportDir(),
        ],
      });
      await expectClean(run);
      expect(run.code).toBe(2);
      expect(
        run.stderr.startsWith(
          `error: control API unusable: GET ${server.url}/control/v1/health answered 200 but not with the control API's health JSON ({"status": "ok", ...}): text/html: "<!DOCTYPE html> <html> <head><title>Welcome to nginx!`,
        ),
      ).toBe(true);
      expect(run.stderr).toMatch(/^[^\n]+\n$/);
    } finally {
      await server.close();
    }
  });

  it('a control API that is healthy but whose clock is not a clock', async () => {
    const service = await startHalfControl(() => ({ status: 200, type: 'application/json', body: '{"now":null}' }));
    try {
      const run = await runMeasuredCli({ args: ['conformance', '--base-url', service.url, '--api-key', KEY, '--report-dir', reportDir()] });
      await expectClean(run);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'error: control API unusable (reading its clock): control API read clock: GET /control/v1/clock answered without a timestamp in "now": "{\\"now\\":null}"\n',
      );
    } finally {
      await service.close();
    }
  });

  it("a control API whose clock works but which cannot create the run's merchant", async () => {
    const service = await startHalfControl((path) =>
      path === '/control/v1/clock'
        ? { status: 200, type: 'application/json', body: `{"now":"${new Date().toISOString()}","offsetMs":0}` }
        : { status: 200, type: 'text/html', body: '<html>hello</html>' },
    );
    try {
      const run = await runMeasuredCli({ args: ['conformance', '--base-url', service.url, '--api-key', KEY, '--report-dir', reportDir()] });
      await expectClean(run);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'error: control API unusable (creating the run\'s merchant): control API create merchant: POST /control/v1/merchants answered 200 without a JSON object: "<html>hello</html>"\n',
      );
    } finally {
      await service.close();
    }
  });
});

describe('a running check that waits on a response the implementation drips', () => {
  let simulator: RunningServer;
  let proxy: Server;
  let proxyUrl: string;
  const drips = new Set<NodeJS.Timeout>();

  beforeAll(async () => {
    simulator = await startServer({ port: 0, logger: quietLogger, defaultApiKey: KEY });
    const upstream = new URL(simulator.url);
    // In front of the simulator: GET /v1/payments/{id} sends its headers, then a byte a second, never the end.
    proxy = createHttpServer((req, res) => {
      if (req.method === 'GET' && /^\/v1\/payments\/[^/?]+$/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 1000);
        drips.add(timer);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    proxy.requestTimeout = 0;
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    for (const timer of drips) clearInterval(timer);
    proxy.closeAllConnections();
    await Promise.all([simulator?.close(), new Promise((resolve) => proxy?.close(resolve))]);
  });

  it('shows which request it waits on, and reports the deadline on its requirement', async () => {
    const run = await runMeasuredCli({
      args: [
        'conformance',
        '--base-url',
        proxyUrl,
        '--api-key',
        KEY,
        '--only',
        'lifecycle.cancel',
        '--no-control',
        '--no-webhooks',
        '--request-timeout',
        '5',
        '--format',
        'console',
        '--report-dir',
        reportDir(),
      ],
    });
    await expectClean(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {8}… lifecycle\.cancel: waiting 0:0[3-5] on GET http:\/\/127\.0\.0\.1:\d+\/v1\/payments\/[0-9a-f-]{36} \(deadline 0:05\)$/m,
    );
    expect(run.stdout).toMatch(/^FAIL lifecycle\.cancel: The implementation did not answer within the request deadline$/m);
    expect(run.stdout).toMatch(
      /no complete answer within 5 s \(--request-timeout\): answered 200 but the body was still arriving after \d bytes/,
    );
    expect(run.wallMs).toBeLessThan(30_000);
  });
});

describe('an interrupted run', () => {
  let simulator: RunningServer;

  beforeAll(async () => {
    simulator = await startServer({ port: 0, logger: quietLogger, defaultApiKey: KEY });
  });

  afterAll(async () => {
    await simulator?.close();
  });

  /** Starts a full run and sends `signals` once `after` checks have finished. */
  function interruptedRun(signals: NodeJS.Signals[], after: number, dir: string, extra: string[] = [], ready?: () => boolean) {
    let signalled = 0;
    let sentAt = 0;
    let pid = 0;
    let seen = '';
    const send = () => {
      signalled = 1;
      sentAt = performance.now();
      // Apart: two equal signals pending at once are delivered as one.
      signals.forEach((signal, i) => setTimeout(() => void tryKill(pid, signal), i * 500));
    };
    // With `ready`, the signals wait for it (polled) instead of for finished checks.
    const poll = ready
      ? setInterval(() => {
          if (signalled === 0 && pid !== 0 && ready()) {
            clearInterval(poll);
            send();
          }
        }, 20)
      : undefined;
    const run = runMeasuredCli({
      args: [
        'conformance',
        '--base-url',
        simulator.url,
        '--api-key',
        KEY,
        '--report-dir',
        dir,
        '--format',
        'console,json,junit,html,md',
        '--seed',
        '3',
        ...extra,
      ],
      onStart: (started) => (pid = started),
      onStdout: (text) => {
        seen += text;
        const finished = seen.match(/^\[\s*\d+\/\d+\] /gm)?.length ?? 0;
        if (signalled === 0 && !ready && finished >= after) send();
      },
      killAfterMs: 120_000,
    }).finally(() => clearInterval(poll));
    return { run, sentAt: () => sentAt };
  }

  it('SIGINT: the running check ends or is aborted, every report holds what ran, marked interrupted, with the checks not run; exit 130', async () => {
    const dir = reportDir();
    const { run: running, sentAt } = interruptedRun(['SIGINT'], 8, dir);
    const run = await running;
    await expectClean(run);
    expect(run.code).toBe(130);
    // Within a few seconds of the signal: the grace for the running check, its cleanups, the reports.
    expect(performance.now() - sentAt()).toBeLessThan(20_000);
    expect(run.stderr).toBe('SIGINT: stopping the run; the reports will hold what ran (Ctrl-C again exits at once)\n');
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
      summary: { interrupted: { by: string; message: string; notRun: string[] }; counts: Record<string, number> };
      checks: { id: string; result: string; reason?: string }[];
    };
    const { interrupted } = report.summary;
    expect(interrupted.by).toBe('SIGINT');
    expect(interrupted.message).toMatch(/^the run was interrupted by SIGINT after \d+ of \d+ checks$/);
    expect(interrupted.notRun.length).toBeGreaterThan(10);
    const notRun = report.checks.filter((c) => interrupted.notRun.includes(c.id));
    expect(notRun.every((c) => c.result === 'skipped' && c.reason === 'not run: the run was interrupted by SIGINT')).toBe(true);
    // What ran is reported as found (the simulator conforms): at least the 8 finished checks passed or were not exercised.
    const ran = report.checks.filter((c) => !interrupted.notRun.includes(c.id) && c.reason?.startsWith('not run') !== true);
    expect(ran.length).toBeGreaterThanOrEqual(8);
    expect(ran.filter((c) => c.result === 'fail' || c.result === 'error')).toEqual([]);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(
      '<property name="stablepay.interrupted" value="the run was interrupted by SIGINT after',
    );
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain('Interrupted: the run was interrupted by SIGINT after');
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(
      /^- \*\*Interrupted\*\*: the run was interrupted by SIGINT after \d+ of \d+ checks; not run: /m,
    );
    expect(run.stdout).toMatch(/^stopped: the run was interrupted by SIGINT; \d+ checks not run$/m);
    expect(run.stdout).toMatch(/^INTERRUPTED: the run was interrupted by SIGINT after \d+ of \d+ checks; \d+ checks not run: /m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  });

  it('SIGTERM exits 143 with the partial reports; a second signal exits at once', async () => {
    const terminated = reportDir();
    const term = await interruptedRun(['SIGTERM'], 3, terminated).run;
    await expectClean(term);
    expect(term.code).toBe(143);
    expect(JSON.parse(readFileSync(join(terminated, 'conformance.json'), 'utf8')).summary.interrupted.by).toBe('SIGTERM');

    // webhooks.slow-receiver-timeout holds a delivery for 11 s: the first Ctrl-C would wait for it, the second does not.
    // The signals go once the check is running (a delivery exists: the run first makes the check a merchant and clock
    // of its own, and a Ctrl-C before the check starts rightly stops the run at once). Merchants of the run above have
    // deliveries already: only a merchant made after this point counts.
    const before = new Set([...simulator.simulator.merchants.all()].map((merchant) => merchant.id));
    const twice = interruptedRun(['SIGINT', 'SIGINT'], 0, reportDir(), ['--only', 'webhooks.slow-receiver-timeout'], () =>
      [...simulator.simulator.merchants.all()].some(
        (merchant) => !before.has(merchant.id) && simulator.simulator.webhooks.deliveries(merchant.id).length > 0,
      ),
    );
    const run = await twice.run;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('SIGINT again: exiting at once');
    expect(performance.now() - twice.sentAt()).toBeLessThan(6_000);
    expect(run.leftover).toEqual([]);
  });
});
