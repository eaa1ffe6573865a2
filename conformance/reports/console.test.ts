// Console presentation: identical findings folded with a count, failures before warnings, and the two progress
// styles (plain lines for CI, one rewritten line with an ETA on a terminal) driven by a fake clock.
import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../options.ts';
import type { CheckResult, Failure, RunResult } from '../types.ts';
import { consoleProgress, formatDuration, groupFindings, renderConsoleSummary } from './console.ts';
import { toCurl } from '../http/curl.ts';
import { SecretRegistry, headerVariable } from '../http/redact.ts';
import type { Exchange } from '../http/recorder.ts';

const finding = (checkId: string, message: string, extra: Partial<Failure> = {}): Failure => ({
  checkId,
  requirement: 'REQ-A',
  severity: 'fail',
  title: 'Status differs',
  message,
  reproduction: null,
  ...extra,
});

function check(id: string, result: CheckResult['result']): CheckResult {
  return {
    id,
    title: id,
    requirements: ['REQ-A'],
    judged: ['REQ-A'],
    level: 'documented',
    needs: [],
    tags: [],
    premises: [],
    result,
    failures: [],
    durationMs: 5,
    cases: 1,
    requests: 1,
  };
}

describe('console findings', () => {
  it('folds findings that differ only in ids and numbers, in any check, under the first; failures first', () => {
    const groups = groupFindings([
      finding('format.x', 'a warning', { severity: 'warn' }),
      finding('auth.a', 'GET /v1/payments/6f1c2a7e-0a4b-4c6d-8e9f-0123456789ab -> 403 after 12 ms'),
      finding('auth.a', 'GET /v1/payments/0a1b2c3d-4e5f-4a6b-8c7d-9e8f7a6b5c4d -> 403 after 31 ms'),
      finding('auth.a', 'POST /v1/payments -> 403'),
      finding('auth.b', 'GET /v1/payments/6f1c2a7e-0a4b-4c6d-8e9f-0123456789ab -> 403 after 12 ms'),
      finding('auth.b', 'GET /v1/payments -> 500', { title: 'Other title' }),
    ]);
    expect(groups.map((g) => [g.severity, g.checkId, g.title, g.findings.map((f) => [f.count, f.alsoIn])])).toEqual([
      [
        'fail',
        'auth.a',
        'Status differs',
        [
          [3, ['auth.b']],
          [1, []],
        ],
      ],
      ['fail', 'auth.b', 'Other title', [[1, []]]],
      ['warn', 'format.x', 'Status differs', [[1, []]]],
    ]);
  });

  it('prints a folded finding once with its count and the other checks', () => {
    const failures = Array.from({ length: 5 }, (_, i) =>
      finding(`c.${i % 2}`, `GET /v1/payments/${i} timed out`, { reproduction: `curl ${i}` }),
    );
    const text = renderConsoleSummary({
      summary: {
        seed: 1,
        runs: 1,
        strict: false,
        durationMs: 1,
        cases: 0,
        requests: 0,
        casesPerSecond: 0,
        counts: { passed: 0, failed: 2, warned: 0, notExercised: 0, skipped: 0 },
      },
      checks: [],
      failures,
      coverage: [],
      traceability: [],
    } as unknown as RunResult);
    expect(text).toContain(
      'FAIL c.0: Status differs (5 findings)\n  [REQ-A] ×5 GET /v1/payments/0 timed out\n      also in: c.1\n      reproduce: curl 0\n',
    );
    expect(text.match(/timed out/g)).toHaveLength(1);
  });
});

describe('console progress', () => {
  const events = (total: number): ProgressEvent[] => [
    {
      type: 'start',
      total,
      capabilities: { control: true },
      notes: [],
      seed: 1,
      limits: { requestTimeoutMs: 15_000, maxResponseBytes: 8 * 1024 * 1024, maxRunTimeMs: null },
    },
    { type: 'check-start', index: 1, total, id: 'a.one', title: '' },
    { type: 'check-end', index: 1, total, result: check('a.one', 'pass') },
    { type: 'check-start', index: 2, total, id: 'a.two', title: '' },
    { type: 'check-end', index: 2, total, result: check('a.two', 'fail') },
    { type: 'check-start', index: 3, total, id: 'a.three', title: '' },
  ];

  it('CI (no terminal): one plain line per finished check, no control characters', () => {
    let out = '';
    const print = consoleProgress((t) => (out += t), { tty: false });
    for (const event of events(4)) print(event);
    expect(out).toContain('[1/4] PASS a.one');
    expect(out).toContain('[2/4] FAIL a.two');
    expect(out).not.toMatch(/\r|\x1b/);
  });

  it('terminal: a rewritten status line with an ETA from the mean check time; only non-passing checks stay', () => {
    let out = '';
    let clock = 0;
    const print = consoleProgress((t) => (out += t), { tty: true, now: () => clock });
    const all = events(4);
    print(all[0]!); // start at 0
    print(all[1]!);
    clock = 10_000;
    print(all[2]!); // 1 done in 10 s: 3 left -> ETA 0:30
    expect(out.split('\r\x1b[2K').at(-1)).toBe('[1/4] 25% · 0 failed · 0 warned · 0:10 elapsed · ETA 0:30 · next check');
    clock = 30_000;
    print(all[3]!);
    print(all[4]!); // 2 done in 30 s: 2 left -> ETA 0:30
    expect(out).toContain('[2/4] FAIL a.two');
    expect(out).not.toContain('PASS a.one');
    clock = 40_000;
    print(all[5]!);
    expect(out.split('\r\x1b[2K').at(-1)).toBe('[3/4] 50% · 1 failed · 0 warned · 0:40 elapsed · ETA 0:40 · a.three');
    print({ type: 'check-progress', id: 'a.three', message: 'waiting 11 s' });
    expect(out.split('\r\x1b[2K').at(-1)).toBe('[3/4] 50% · 1 failed · 0 warned · 0:40 elapsed · ETA 0:40 · a.three: waiting 11 s');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});

describe('extra request headers in reproductions', () => {
  it('names the header value as a shell variable, never the value', () => {
    const secrets = new SecretRegistry();
    secrets.add('gw-secret-token-0001', headerVariable('X-Gateway-Token'));
    const exchange = {
      method: 'GET',
      url: 'http://127.0.0.1:4000/v1/payments',
      credential: { kind: 'none' },
      requestHeaders: { accept: 'application/json', 'X-Gateway-Token': '[REDACTED:STABLEPAY_HEADER_X_GATEWAY_TOKEN]' },
    } as unknown as Exchange;
    expect(toCurl(exchange, secrets)).toBe(
      `curl -i -X GET 'http://127.0.0.1:4000/v1/payments' -H 'accept: application/json' -H "X-Gateway-Token: $STABLEPAY_HEADER_X_GATEWAY_TOKEN"`,
    );
  });
});
