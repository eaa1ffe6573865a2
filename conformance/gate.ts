// The gate a CI job sets on a run, so a run that judged little cannot pass as conformant: `--require-coverage <percent>`
// (the share of documented requirements the run exercised) and `--require <check|tag>` (every check it selects must
// pass: not fail, not warn, not be left not-exercised or skipped). Unmet, the run exits 1 and every report says why.
// Both are config-file keys too (`require-coverage: 90`, `require: [browser]`).
import type { GateOptions } from './gate-options.ts';
import { UsageError } from './usage-error.ts';
import { matchesSelector, unknownSelectors } from './registry.ts';
import type { Check } from './check.ts';
import type { CheckResult, CoverageSummary, GateResult } from './types.ts';

export type { GateResult } from './types.ts';

/** Refuses a bad gate before anything starts (exit 2). */
export function checkGateOptions(options: GateOptions, checks: Check[]): void {
  const percent = options.requireCoverage;
  if (percent !== undefined && !(Number.isFinite(percent) && percent >= 0 && percent <= 100))
    throw new UsageError(`--require-coverage: ${String(percent)} is not a percentage between 0 and 100`);
  const unknown = unknownSelectors(checks, options.require ?? []);
  if (unknown.length > 0) throw new UsageError(`--require: no check matches ${unknown.join(', ')} (see --list)`);
}

export function evaluateGate(options: GateOptions, results: CheckResult[], coverage: CoverageSummary[]): GateResult {
  const documented = coverage.find((c) => c.level === 'documented');
  const documentedExercised = documented && documented.total > 0 ? Math.round((1000 * documented.exercised) / documented.total) / 10 : 0;
  const unmet: string[] = [];
  const requireCoverage = options.requireCoverage ?? null;
  if (requireCoverage !== null && documentedExercised < requireCoverage) {
    unmet.push(
      `--require-coverage ${requireCoverage}: the run exercised ${documented?.exercised ?? 0} of ${documented?.total ?? 0} documented requirements (${documentedExercised} %)`,
    );
  }
  const required = (options.require ?? []).map((selector) => ({
    selector,
    checks: results.filter((r) => matchesSelector(r, selector)).map((r) => ({ id: r.id, result: r.result })),
  }));
  for (const { selector, checks } of required) {
    const notPassed = checks.filter((c) => c.result !== 'pass');
    if (notPassed.length > 0)
      unmet.push(`--require ${selector}: ${notPassed.map((c) => `${c.id} ${c.result}`).join(', ')} (a required check must pass)`);
  }
  return { met: unmet.length === 0, unmet, requireCoverage, documentedExercised, required };
}
