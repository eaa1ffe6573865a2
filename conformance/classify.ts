// DESIGN §2 in code: a failure of a documented requirement fails; of an assumed one it warns unless
// --strict. A check's result is its worst failure; no failure is a pass. Not-exercised and skipped
// are decided before a check runs and are never counted as passes.
import type { CheckResult, Counts, RequirementLevel, ResultKind, RunInterruption, Severity, Failure } from './types.ts';

export function severityOf(level: RequirementLevel, strict: boolean): Severity {
  return level === 'documented' || strict ? 'fail' : 'warn';
}

export function resultOf(failures: Pick<Failure, 'severity'>[]): ResultKind {
  if (failures.some((failure) => failure.severity === 'fail')) return 'fail';
  if (failures.length > 0) return 'warn';
  return 'pass';
}

export function countResults(results: Pick<CheckResult, 'result'>[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, warned: 0, notExercised: 0, skipped: 0, errors: 0 };
  for (const { result } of results) {
    if (result === 'pass') counts.passed++;
    else if (result === 'fail') counts.failed++;
    else if (result === 'warn') counts.warned++;
    else if (result === 'not-exercised') counts.notExercised++;
    else if (result === 'error') counts.errors++;
    else counts.skipped++;
  }
  return counts;
}

// An error is worse than any verdict but a failure: the requirement may be broken, and the run cannot say.
const RANK: Record<ResultKind, number> = { fail: 5, error: 4, warn: 3, pass: 2, 'not-exercised': 1, skipped: 0 };

/** Worst of several results (fail > error > warn > pass > not-exercised > skipped). */
export function worstResult(results: ResultKind[]): ResultKind | undefined {
  return [...results].sort((a, b) => RANK[b] - RANK[a])[0];
}

/** 0 conformant, 1 failed checks, 2 the suite could not judge, 128 + the signal number when interrupted by one. */
export type ExitCode = 0 | 1 | 2 | 130 | 143;

export const EXIT_CODE_OF_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * A signal wins (the shell's convention, so a script sees the interrupt); then anything that kept the suite from
 * judging the plan (an `error` result, the run's deadline) is 2, even beside failures: a crash in the suite must not
 * read as a verdict on the implementation. Then failed checks are 1.
 */
export function exitCodeFor(counts: Counts, interrupted?: Pick<RunInterruption, 'by'>): ExitCode {
  if (interrupted && interrupted.by !== 'max-run-time') return EXIT_CODE_OF_SIGNAL[interrupted.by];
  if (counts.errors > 0 || interrupted) return 2;
  return counts.failed > 0 ? 1 : 0;
}
