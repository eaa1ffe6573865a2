// The ndjson stream prints whole check results while the run goes, before the final scrub of the RunResult:
// every event is scrubbed of the secrets known at that moment.
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../http/redact.ts';
import type { CheckResult } from '../types.ts';
import { ndjsonProgress } from './ndjson.ts';

describe('ndjson progress', () => {
  it('one parseable line per event, check results scrubbed of known secrets and secret-shaped strings', () => {
    const secrets = new SecretRegistry();
    secrets.add('pk_ndjsonSecretKey000000000001', 'STABLEPAY_API_KEY');
    const lines: string[] = [];
    const print = ndjsonProgress((text) => lines.push(text), secrets);
    const result: CheckResult = {
      id: 'auth.x',
      title: 't',
      requirements: ['R'],
      judged: ['R'],
      level: 'documented',
      needs: [],
      tags: [],
      premises: [],
      result: 'fail',
      durationMs: 1,
      cases: 1,
      requests: 1,
      failures: [
        {
          checkId: 'auth.x',
          requirement: 'R',
          severity: 'fail',
          title: 't',
          message: `key pk_ndjsonSecretKey000000000001 and whsec_${'ab'.repeat(16)}`,
          reproduction: null,
        },
      ],
    };
    print({
      type: 'start',
      total: 1,
      capabilities: { control: true },
      notes: [],
      seed: 7,
      limits: { requestTimeoutMs: 15_000, maxResponseBytes: 8 * 1024 * 1024, maxRunTimeMs: null },
    });
    print({ type: 'check-start', index: 1, total: 1, id: 'auth.x', title: 't' });
    print({ type: 'check-end', index: 1, total: 1, result });
    print({ type: 'stopped', reason: 'r', remaining: 0 });
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const events = lines.map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['start', 'check', 'stopped']);
    expect(events[1].failures[0].message).toBe('key [REDACTED:STABLEPAY_API_KEY] and [REDACTED]');
    expect(lines.join('')).not.toContain('pk_ndjsonSecretKey');
  });
});

describe('ndjson: an error result', () => {
  it('streams the message of a check that broke, not its stack (that is in the JSON report only)', () => {
    const lines: string[] = [];
    const print = ndjsonProgress((text) => lines.push(text));
    const result: CheckResult = {
      id: 'auth.x',
      title: 't',
      requirements: ['R'],
      level: 'documented',
      needs: [],
      premises: [],
      judged: [],
      tags: [],
      result: 'error',
      durationMs: 1,
      cases: 0,
      requests: 0,
      failures: [],
      error: { message: 'TypeError: boom', stack: 'TypeError: boom\n    at run (file:///x.ts:1:1)' },
    };
    print({ type: 'check-end', index: 1, total: 1, result });
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'check', result: 'error', error: { message: 'TypeError: boom' } });
    expect(lines[0]).not.toContain('x.ts:1:1');
  });
});
