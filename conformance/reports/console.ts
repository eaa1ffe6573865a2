// Console output: one progress line per check while running, then the failures, then the summary.
// The final line is exactly `N passed, N failed`; the line before it carries the other counts.
import type { ProgressEvent } from '../options.ts';
import type { CheckResult, RunResult } from '../types.ts';
import { percent } from '../traceability.ts';

const MARK: Record<CheckResult['result'], string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  'not-exercised': 'N/E ',
  skipped: 'SKIP',
};

export function consoleProgress(write: (text: string) => void): (event: ProgressEvent) => void {
  return (event) => {
    if (event.type === 'start') {
      write(`stablepay conformance: ${event.total} checks, seed ${event.seed}\n`);
      const caps = Object.entries(event.capabilities).map(([name, on]) => `${name}: ${on ? 'yes' : 'no'}`);
      write(`capabilities: ${caps.join(', ')}\n`);
      for (const note of event.notes) write(`  note: ${note}\n`);
    } else if (event.type === 'check-end') {
      const { result } = event;
      const width = String(event.total).length;
      const extra = result.result === 'not-exercised' || result.result === 'skipped' ? ` (${result.reason})` : '';
      const stats = result.cases > 0 ? `, ${result.cases} cases` : '';
      write(`[${String(event.index).padStart(width)}/${event.total}] ${MARK[result.result]} ${result.id} (${result.durationMs} ms, ${result.requests} requests${stats})${extra}\n`);
    } else if (event.type === 'check-progress') {
      write(`        … ${event.id}: ${event.message}\n`);
    }
  };
}

export function renderConsoleSummary(result: RunResult): string {
  const lines: string[] = [''];
  const { summary } = result;
  for (const failure of result.failures) {
    lines.push(`${failure.severity.toUpperCase()} ${failure.checkId} [${failure.requirement}] ${failure.title}`);
    for (const line of failure.message.split('\n')) lines.push(`    ${line}`);
    if (failure.reproduction) lines.push(`    reproduce: ${failure.reproduction}`);
    if (failure.fastCheck) lines.push(`    replay: ${failure.fastCheck.replay}`);
    lines.push('');
  }
  const seconds = (summary.durationMs / 1000).toFixed(1);
  lines.push(`seed ${summary.seed}, ${summary.runs} runs per property${summary.strict ? ', strict' : ''}`);
  lines.push(`${result.checks.length} checks, ${summary.cases} generated cases, ${summary.requests} requests in ${seconds} s (${summary.casesPerSecond} cases/s)`);
  for (const coverage of result.coverage) {
    lines.push(`${coverage.level} requirements: ${coverage.exercised}/${coverage.total} exercised (${percent(coverage.exercised, coverage.total)}), ${coverage.covered} covered by the suite`);
  }
  const { counts } = summary;
  lines.push(`${counts.warned} warned, ${counts.notExercised} not exercised, ${counts.skipped} skipped`);
  lines.push(`${counts.passed} passed, ${counts.failed} failed`);
  return `${lines.join('\n')}\n`;
}
