import { PremiseBook } from './premises/book.ts';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunServices } from './context.ts';
import { Recorder } from './http/recorder.ts';
import { SecretRegistry } from './http/redact.ts';
import { resolveOptions } from './options.ts';
import { renderConsoleSummary } from './reports/console.ts';
import { renderHtml } from './reports/html.ts';
import { writeReports } from './reports/index.ts';
import { renderJunit } from './reports/junit.ts';
import { renderMarkdown } from './reports/markdown.ts';
import { assembleResult, type RunPlan } from './runner.ts';
import type { CatalogueRequirement, CheckResult } from './types.ts';

const KEY = 'pk_reportsecret0123456789abcdefghijklmnopqrstuvwxyz';
const WHSEC = `whsec_${'cd'.repeat(32)}`;

const catalogue: CatalogueRequirement[] = [
  { id: 'DOC-A', section: '§4', statement: 'documented <a>', level: 'documented', tags: [] },
  { id: 'DOC-B', section: '§5', statement: 'documented b', level: 'documented', tags: [] },
  { id: 'ASM-A', section: '§6', statement: 'assumed a', level: 'assumed', tags: [] },
  { id: 'ASM-B', section: '§6', statement: 'assumed b', level: 'assumed', tags: [] },
];

function result(id: string, kind: CheckResult['result'], requirements: string[], extra: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `title of ${id}`,
    requirements,
    level: 'documented',
    needs: [],
    tags: [id.split('.')[0]!],
    premises: [],
    judged: requirements,
    result: kind,
    failures: [],
    durationMs: 12,
    cases: 3,
    requests: 4,
    ...extra,
  };
}

function sample() {
  const secrets = new SecretRegistry();
  secrets.add(KEY, 'STABLEPAY_API_KEY');
  secrets.add(WHSEC, 'WEBHOOK_SECRET_1');
  const options = resolveOptions({ baseUrl: 'http://127.0.0.1:4000', apiKey: KEY, seed: 99, write: () => {} });
  const services = {
    options,
    secrets,
    recorder: new Recorder(),
    catalogue: new Map(catalogue.map((r) => [r.id, r])),
    premises: new PremiseBook({}),
  } as unknown as RunServices;
  const checks = [
    result('auth.ok', 'pass', ['DOC-A']),
    result('create.bad', 'fail', ['DOC-A', 'DOC-B'], {
      failures: [
        {
          checkId: 'create.bad',
          requirement: 'DOC-B',
          severity: 'fail',
          title: 'Broken <thing> & more',
          message: `leaked ${KEY} and ${WHSEC}`,
          reproduction: `curl -H "Authorization: Bearer $STABLEPAY_API_KEY" -d '${WHSEC}'`,
          fastCheck: { property: 'create.bad/p', path: '0:1', numRuns: 3, counterexample: `["${KEY}"]` },
        },
      ],
    }),
    result('fees.soft', 'warn', ['ASM-A'], {
      failures: [{ checkId: 'fees.soft', requirement: 'ASM-A', severity: 'warn', title: 'assumed', message: 'm', reproduction: null }],
    }),
    result('webhooks.none', 'not-exercised', ['DOC-B'], { reason: 'needs control' }),
    result('lifecycle.skip', 'skipped', ['ASM-B'], { reason: 'excluded by --skip lifecycle' }),
  ];
  const plan: RunPlan = {
    selected: [],
    skipped: [],
    capabilities: { control: false, 'webhook-receiver': true, customer: false },
    capabilityNotes: ['no control API'],
  };
  return assembleResult(checks, plan, services, catalogue, { startedAt: new Date(0), finishedAt: new Date(2000), version: '0.1.0' });
}

describe('report writers', () => {
  const run = sample();

  it('scrub secrets from every recorded string before any writer sees them', () => {
    const json = JSON.stringify(run);
    expect(json).not.toContain(KEY);
    expect(json).not.toContain(WHSEC);
    expect(json).toContain('$STABLEPAY_API_KEY');
  });

  it('console summary ends with exactly "N passed, N failed" after the other counts', () => {
    const lines = renderConsoleSummary(run).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(lines.at(-2)).toBe('1 warned, 1 not exercised, 1 skipped');
    expect(lines.join('\n')).toContain('reproduce: curl');
    expect(lines.join('\n')).toContain('replay: stablepay replay reports/conformance/conformance.json --check create.bad');
  });

  it('traceability: a requirement is exercised only by checks that ran', () => {
    expect(run.traceability.map((r) => [r.requirement.id, r.result])).toEqual([
      ['DOC-A', 'pass'],
      ['DOC-B', 'fail'],
      ['ASM-A', 'warn'],
      ['ASM-B', 'skipped'],
    ]);
    expect(run.coverage).toEqual([
      { level: 'documented', total: 2, covered: 2, exercised: 2 },
      { level: 'assumed', total: 2, covered: 2, exercised: 1 },
    ]);
  });

  it('JUnit: failures as <failure>, warnings pass, not-exercised and skipped as <skipped>', () => {
    const xml = renderJunit(run);
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="stablepay conformance" tests="5" failures="1" errors="0" skipped="2"/,
    );
    expect(xml).toContain('<failure type="DOC-B" message="Broken &lt;thing&gt; &amp; more">');
    expect(xml).toContain('<skipped message="not-exercised: needs control"/>');
    expect((xml.match(/<testcase /g) ?? []).length).toBe(5);
    expect((xml.match(/<testsuite /g) ?? []).length).toBe((xml.match(/<\/testsuite>/g) ?? []).length);
  });

  it('HTML is self-contained, escaped, with the matrix and coverage of both levels', () => {
    const html = renderHtml(run);
    expect(html).not.toMatch(/<script[^>]*src|<link|src="http/);
    expect(html).toContain('Requirement traceability matrix');
    expect(html).toContain('documented &lt;a&gt;');
    expect(html).toContain('<td>documented</td><td>2</td><td>2 (100.0 %)</td><td>2 (100.0 %)</td>');
    expect(html).toContain('<td>assumed</td><td>2</td><td>2 (100.0 %)</td><td>1 (50.0 %)</td>');
    expect(html).toContain('id="req-DOC-B"');
  });

  it('Markdown carries the counts, the failures with reproduction and the matrix', () => {
    const md = renderMarkdown(run);
    expect(md).toContain('**1 passed, 1 failed**');
    expect(md).toContain('```sh\ncurl');
    expect(md).toContain('| `ASM-B` | assumed | §6 | lifecycle.skip (skipped) | skipped |');
  });

  it('writes one file per format and the console summary last', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-reports-'));
    let out = '';
    const files = await writeReports(run, ['console', 'json', 'junit', 'html', 'md'], dir, (t) => (out += t));
    expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual([
      'conformance.html',
      'conformance.json',
      'conformance.md',
      'junit.xml',
    ]);
    const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8'));
    expect(json.summary.seed).toBe(99);
    expect(json.failures[0].fastCheck.path).toBe('0:1');
    expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
  });
});

/** A run with a check that broke, one that found something before it broke, and an interruption. */
function broken() {
  const secrets = new SecretRegistry();
  const options = resolveOptions({
    baseUrl: 'http://127.0.0.1:4000',
    apiKey: KEY,
    seed: 7,
    requestTimeout: 2,
    maxResponseBytes: 1024 * 1024,
    maxRunTime: 90,
    write: () => {},
  });
  const services = {
    options,
    secrets,
    recorder: new Recorder(),
    catalogue: new Map(catalogue.map((r) => [r.id, r])),
    premises: new PremiseBook({}),
  } as unknown as RunServices;
  const stack = "TypeError: Cannot read properties of null (reading 'id')\n    at run (file:///suite/checks/x.ts:10:5)";
  const checks = [
    result('auth.ok', 'pass', ['DOC-A']),
    result('create.crashed', 'error', ['DOC-A', 'ASM-A'], {
      error: { message: "TypeError: Cannot read properties of null (reading 'id')", stack },
    }),
    result('fees.half', 'error', ['DOC-B'], {
      error: { message: 'RangeError: later', stack: 'RangeError: later\n    at x (file:///y.ts:1:1)' },
      failures: [{ checkId: 'fees.half', requirement: 'DOC-B', severity: 'fail', title: 'found first', message: 'm', reproduction: null }],
    }),
    result('lifecycle.rest', 'skipped', ['ASM-B'], { reason: 'not run: the run was interrupted by SIGINT' }),
  ];
  const plan: RunPlan = {
    selected: [],
    skipped: [],
    capabilities: { control: false, 'webhook-receiver': true, customer: false },
    capabilityNotes: [],
  };
  const interrupted = {
    by: 'SIGINT' as const,
    message: 'the run was interrupted by SIGINT after 3 of 4 checks',
    notRun: ['lifecycle.rest'],
  };
  return assembleResult(checks, plan, services, catalogue, {
    startedAt: new Date(0),
    finishedAt: new Date(2000),
    version: '0.1.0',
    interrupted,
  });
}

describe('report writers: error results, limits and interrupted runs', () => {
  const run = broken();
  const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

  it('counts errors, keeps a failure found before the break in the matrix, and never counts an error as exercised', () => {
    expect(run.summary.counts).toEqual({ passed: 1, failed: 0, warned: 0, notExercised: 0, skipped: 1, errors: 2 });
    expect(run.summary.limits).toEqual({ requestTimeoutMs: 2000, maxResponseBytes: 1024 * 1024, maxRunTimeMs: 90_000 });
    expect(run.traceability.map((r) => [r.requirement.id, r.result])).toEqual([
      ['DOC-A', 'error'],
      ['DOC-B', 'fail'],
      ['ASM-A', 'error'],
      ['ASM-B', 'skipped'],
    ]);
    expect(run.coverage).toEqual([
      // DOC-A by the passing check, DOC-B by the finding made before the check broke; ASM-A only by a broken check.
      { level: 'documented', total: 2, covered: 2, exercised: 2 },
      { level: 'assumed', total: 2, covered: 2, exercised: 0 },
    ]);
  });

  it('console: the message and check id of each error, the interruption, the limits; no stack', () => {
    const text = renderConsoleSummary(run);
    expect(text).toContain("ERROR create.crashed: TypeError: Cannot read properties of null (reading 'id')");
    expect(text).toContain('ERROR fees.half: RangeError: later');
    expect(text).toContain('the suite could not judge these checks (exit 2); the stack is in the JSON report');
    expect(text).toContain('INTERRUPTED: the run was interrupted by SIGINT after 3 of 4 checks; 1 check not run: lifecycle.rest');
    expect(text).toContain('0 warned, 0 not exercised, 1 skipped, 2 errors\n1 passed, 0 failed\n');
    expect(text).not.toMatch(STACK_FRAME);
  });

  it('JSON carries the stack; JUnit, HTML and Markdown the message only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-reports-error-'));
    await writeReports(run, ['json'], dir, () => {});
    const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8'));
    expect(json.checks[1].error.stack).toMatch(STACK_FRAME);
    expect(json.summary.interrupted.notRun).toEqual(['lifecycle.rest']);

    const xml = renderJunit(run);
    expect(xml).toMatch(/<testsuites name="stablepay conformance" tests="4" failures="0" errors="2" skipped="1"/);
    expect(xml).toContain(`<error type="error" message="TypeError: Cannot read properties of null (reading 'id')">`);
    expect(xml).toContain('<property name="stablepay.interrupted" value="the run was interrupted by SIGINT after 3 of 4 checks"/>');
    expect(xml).toContain('<property name="stablepay.limits.requestTimeoutMs" value="2000"/>');
    expect(xml).not.toMatch(STACK_FRAME);

    const html = renderHtml(run);
    expect(html).toContain('id="verdict">Interrupted: the run was interrupted by SIGINT after 3 of 4 checks; partial report</span>');
    expect(html).toContain('<section id="errors"><h2>Errors (2 checks could not be judged)</h2>');
    expect(html).toContain(
      'each request 2 s (--request-timeout), response bodies up to 1 MiB (--max-response-bytes), the run ends after 90 s (--max-run-time)',
    );
    expect(html).not.toMatch(STACK_FRAME);

    const md = renderMarkdown(run);
    expect(md).toContain('- **Interrupted**: the run was interrupted by SIGINT after 3 of 4 checks; not run: lifecycle.rest');
    expect(md).toContain("| error (TypeError: Cannot read properties of null (reading 'id')) |");
    expect(md).toContain(', **2 errors**');
    expect(md).not.toMatch(STACK_FRAME);
  });
});
