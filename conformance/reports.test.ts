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
  return { id, title: `title of ${id}`, requirements, level: 'documented', needs: [], tags: [id.split('.')[0]!], premises: [], judged: requirements, result: kind, failures: [], durationMs: 12, cases: 3, requests: 4, ...extra };
}

function sample() {
  const secrets = new SecretRegistry();
  secrets.add(KEY, 'STABLEPAY_API_KEY');
  secrets.add(WHSEC, 'WEBHOOK_SECRET_1');
  const options = resolveOptions({ baseUrl: 'http://127.0.0.1:4000', apiKey: KEY, seed: 99, write: () => {} });
  const services = { options, secrets, recorder: new Recorder(), catalogue: new Map(catalogue.map((r) => [r.id, r])), premises: new PremiseBook({}) } as unknown as RunServices;
  const checks = [
    result('auth.ok', 'pass', ['DOC-A']),
    result('create.bad', 'fail', ['DOC-A', 'DOC-B'], {
      failures: [{ checkId: 'create.bad', requirement: 'DOC-B', severity: 'fail', title: 'Broken <thing> & more', message: `leaked ${KEY} and ${WHSEC}`, reproduction: `curl -H "Authorization: Bearer $STABLEPAY_API_KEY" -d '${WHSEC}'`, fastCheck: { seed: 5, path: '0:1', numRuns: 3, counterexample: `["${KEY}"]`, replay: 'stablepay conformance --seed 99' } }],
    }),
    result('fees.soft', 'warn', ['ASM-A'], { failures: [{ checkId: 'fees.soft', requirement: 'ASM-A', severity: 'warn', title: 'assumed', message: 'm', reproduction: null }] }),
    result('webhooks.none', 'not-exercised', ['DOC-B'], { reason: 'needs control' }),
    result('lifecycle.skip', 'skipped', ['ASM-B'], { reason: 'excluded by --skip lifecycle' }),
  ];
  const plan: RunPlan = { selected: [], skipped: [], capabilities: { control: false, 'webhook-receiver': true, customer: false }, capabilityNotes: ['no control API'] };
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
    expect(lines.join('\n')).toContain('replay: stablepay conformance --seed 99');
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
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="stablepay conformance" tests="5" failures="1" errors="0" skipped="2"/);
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
    expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['conformance.html', 'conformance.json', 'conformance.md', 'junit.xml']);
    const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8'));
    expect(json.summary.seed).toBe(99);
    expect(json.failures[0].fastCheck.path).toBe('0:1');
    expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
  });
});
