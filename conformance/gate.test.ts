// The gate on a run: the share of documented requirements exercised, and checks that must pass. A warned,
// not-exercised or skipped required check does not pass; a selector that matches nothing is a usage error.
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from './checks/index.ts';
import { checkGateOptions, evaluateGate } from './gate.ts';
import { UsageError } from './options.ts';
import type { CheckResult, CoverageSummary } from './types.ts';

const result = (id: string, outcome: CheckResult['result'], tags: string[] = []): CheckResult => ({
  id,
  title: id,
  requirements: ['R-1'],
  level: 'documented',
  needs: [],
  premises: [],
  tags: [id.split('.')[0]!, ...tags],
  result: outcome,
  judged: [],
  failures: [],
  durationMs: 0,
  cases: 0,
  requests: 0,
});
const coverage = (exercised: number, total = 195): CoverageSummary[] => [
  { level: 'documented', total, covered: total, exercised },
  { level: 'assumed', total: 10, covered: 10, exercised: 10 },
];

describe('gate', () => {
  it('holds when the documented coverage reaches the percentage and every required check passed', () => {
    const gate = evaluateGate(
      { requireCoverage: 90, require: ['browser'] },
      [result('customer.settles', 'pass', ['browser']), result('auth.x', 'fail')],
      coverage(176),
    );
    expect(gate).toEqual({
      met: true,
      unmet: [],
      requireCoverage: 90,
      documentedExercised: 90.3,
      required: [{ selector: 'browser', checks: [{ id: 'customer.settles', result: 'pass' }] }],
    });
  });

  it('does not hold on low coverage, or on a required check that warned, was not exercised or was skipped', () => {
    const checks = [
      result('customer.settles', 'warn', ['browser']),
      result('customer.pay-each-pair', 'not-exercised', ['browser']),
      result('customer.pay-embedded', 'skipped', ['browser']),
      result('customer.split-five-sellers', 'pass', ['browser']),
    ];
    const gate = evaluateGate({ requireCoverage: 74.5, require: ['browser'] }, checks, coverage(145));
    expect(gate.met).toBe(false);
    expect(gate.unmet).toEqual([
      '--require-coverage 74.5: the run exercised 145 of 195 documented requirements (74.4 %)',
      '--require browser: customer.settles warn, customer.pay-each-pair not-exercised, customer.pay-embedded skipped (a required check must pass)',
    ]);
  });

  it('refuses a percentage out of range and a selector that matches no check, before the run', () => {
    expect(() => checkGateOptions({ requireCoverage: 120 }, ALL_CHECKS)).toThrow(UsageError);
    expect(() => checkGateOptions({ require: ['browser', 'customer.nope'] }, ALL_CHECKS)).toThrow(
      '--require: no check matches customer.nope (see --list)',
    );
    expect(() =>
      checkGateOptions({ requireCoverage: 0, require: ['browser', 'customer.settles', 'PAY-STATE-ACTIVE-TO-PROCESSING'] }, ALL_CHECKS),
    ).not.toThrow();
  });
});

describe('the GitHub Actions recipe', () => {
  it('gates its run with --require-coverage and --require, flags the CLI declares', async () => {
    const { readFileSync } = await import('node:fs');
    const { OPTION_DECLARATIONS } = await import('./options.ts');
    const recipe = readFileSync(new URL('../docs/ci/github-actions.yml', import.meta.url), 'utf8');
    const command = recipe.slice(recipe.indexOf('npx stablepay conformance'), recipe.indexOf('# Reports are uploaded'));
    const flags = [...command.matchAll(/\s(--[a-z-]+)/g)].map((m) => m[1]!);
    expect(flags).toEqual(expect.arrayContaining(['--require-coverage', '--require']));
    const declared = new Set(OPTION_DECLARATIONS.flatMap((d) => d.flags.split(/[ ,]+/).filter((f) => f.startsWith('--'))));
    expect(flags.filter((f) => !declared.has(f))).toEqual([]);
  });
});
