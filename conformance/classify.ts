// DESIGN §2 in code: a failure of a documented requirement fails; of an assumed one it warns unless
// --strict. A check's result is its worst failure; no failure is a pass. Not-exercised and skipped
// are decided before a check runs and are never counted as passes.
import type { CheckResult, Counts, RequirementLevel, ResultKind, Severity, Failure } from './types.ts';

export function severityOf(level: RequirementLevel, strict: boolean): Severity {
  return level === 'documented' || strict ? 'fail' : 'warn';
}

export function resultOf(failures: Pick<Failure, 'severity'>[]): ResultKind {
  if (failures.some((failure) => failure.severity === 'fail')) return 'fail';
  if (failures.length > 0) return 'warn';
  return 'pass';
}

export function countResults(results: Pick<CheckResult, 'result'>[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, warned: 0, notExercised: 0, skipped: 0 };
  for (const { result } of results) {
    if (result === 'pass') counts.passed++;
    else if (result === 'fail') counts.failed++;
    else if (result === 'warn') counts.warned++;
    else if (result === 'not-exercised') counts.notExercised++;
    else counts.skipped++;
  }
  return counts;
}

const RANK: Record<ResultKind, number> = { fail: 4, warn: 3, pass: 2, 'not-exercised': 1, skipped: 0 };

/** Worst of several results (fail > warn > pass > not-exercised > skipped). */
export function worstResult(results: ResultKind[]): ResultKind | undefined {
  return [...results].sort((a, b) => RANK[b] - RANK[a])[0];
}

export function exitCodeFor(counts: Counts): 0 | 1 {
  return counts.failed > 0 ? 1 : 0;
}
