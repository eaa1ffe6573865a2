// The run's verdict and limits in words, the same in every report: a run that was interrupted or could not judge a
// check never reads as a verdict on the implementation.
import { formatBytes, formatSeconds } from '../units.ts';
import type { GateResult, ResultKind, RunLimits, RunSummary } from '../types.ts';

/** `gate`: the run's --require-coverage/--require; unmet, a run with no failed check still reads as a failure. */
export function verdictOf(summary: Pick<RunSummary, 'counts' | 'interrupted'>, gate?: GateResult): { text: string; kind: ResultKind } {
  const { counts, interrupted } = summary;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const found = counts.failed > 0 ? `; ${plural(counts.failed, 'failed check')} so far` : '';
  if (interrupted) return { text: `Interrupted: ${interrupted.message}; partial report${found}`, kind: 'skipped' };
  if (counts.errors > 0) return { text: `Not judged: ${plural(counts.errors, 'check')} broke with an error${found}`, kind: 'error' };
  if (counts.failed > 0) return { text: `Not conformant: ${plural(counts.failed, 'failed check')}`, kind: 'fail' };
  if (gate?.met === false) return { text: `Gate not met: ${gate.unmet.join('; ')}`, kind: 'fail' };
  if (counts.warned > 0) return { text: `Conformant with ${plural(counts.warned, 'warning')} (assumed requirements)`, kind: 'warn' };
  return { text: 'Conformant', kind: 'pass' };
}

/** `each request 15 s (--request-timeout), response bodies up to 8 MiB (--max-response-bytes), no run-time limit`. */
export function limitsText(limits: RunLimits): string {
  const runTime =
    limits.maxRunTimeMs === null ? 'no run-time limit' : `the run ends after ${formatSeconds(limits.maxRunTimeMs)} (--max-run-time)`;
  return `each request ${formatSeconds(limits.requestTimeoutMs)} (--request-timeout), response bodies up to ${formatBytes(limits.maxResponseBytes)} (--max-response-bytes), ${runTime}`;
}
