// Console output: one progress line per check while running (on a terminal: one rewritten line with an ETA), then
// the failures grouped by check with identical findings folded into a count, then the summary.
// The final line is exactly `N passed, N failed`; the line before it carries the other counts.
import type { ProgressEvent } from '../options.ts';
import type { CheckResult, Failure, RunResult } from '../types.ts';
import { percent } from '../traceability.ts';
import { limitsText } from './verdict.ts';
import { premiseCounts, premiseRows } from './premises.ts';
import { replayLines } from './replay-text.ts';
import { curlNote } from '../reproduction/secret-needs.ts';

const MARK: Record<CheckResult['result'], string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  'not-exercised': 'N/E ',
  skipped: 'SKIP',
  error: 'ERR ',
};

export interface ConsoleProgressOptions {
  /** A terminal: one progress line with an ETA, rewritten in place; failures and warnings stay as lines above it. */
  tty?: boolean;
  /** Clock for the ETA (ms); injectable for tests. */
  now?: () => number;
}

/** `m:ss`, or `h:mm:ss` from an hour on. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function consoleProgress(write: (text: string) => void, settings: ConsoleProgressOptions = {}): (event: ProgressEvent) => void {
  const now = settings.now ?? (() => performance.now());
  const tty = settings.tty ?? false;
  let started = now();
  let done = 0;
  let total = 0;
  let failed = 0;
  let warned = 0;
  let statusShown = false;
  /** The checks running now (several with --workers above 1): the status line names them. */
  let running: string[] = [];
  const runningText = () => (running.length <= 1 ? (running[0] ?? 'next check') : `${running.length} running: ${running.join(', ')}`);
  const clearStatus = () => {
    if (statusShown) write('\r\x1b[2K');
    statusShown = false;
  };
  const status = (index: number, total: number, current: string) => {
    const elapsed = now() - started;
    // ETA from the mean time per finished check; unknown until one has finished.
    const eta = done > 0 ? formatDuration((elapsed / done) * (total - done)) : '?';
    const pct = Math.floor((done / total) * 100);
    clearStatus();
    write(
      `[${index}/${total}] ${pct}% · ${failed} failed · ${warned} warned · ${formatDuration(elapsed)} elapsed · ETA ${eta} · ${current}`.slice(
        0,
        160,
      ),
    );
    statusShown = true;
  };
  return (event) => {
    if (event.type === 'start') {
      started = now();
      write(
        `stablepay conformance: ${event.total} checks, seed ${event.seed}${event.workers && event.workers > 1 ? `, up to ${event.workers} at once` : ''}\n`,
      );
      const caps = Object.entries(event.capabilities).map(([name, on]) => `${name}: ${on ? 'yes' : 'no'}`);
      write(`capabilities: ${caps.join(', ')}\n`);
      write(`limits: ${limitsText(event.limits)}\n`);
      for (const note of event.notes) write(`  note: ${note}\n`);
    } else if (event.type === 'check-start') {
      total = event.total;
      running = event.running ?? [event.id];
      if (tty) status(done + running.length, event.total, runningText());
      else if (running.length > 1) write(`        … started ${event.id} (${runningText()})\n`);
    } else if (event.type === 'check-end') {
      const { result } = event;
      done = event.index;
      running = event.running ?? [];
      if (result.result === 'fail') failed += 1;
      if (result.result === 'warn') warned += 1;
      const width = String(event.total).length;
      // An error shows its message (the stack is in the JSON report only).
      const extra =
        result.result === 'error'
          ? ` (${result.error?.message.split('\n')[0] ?? 'error'})`
          : result.result === 'not-exercised' || result.result === 'skipped'
            ? ` (${result.reason})`
            : '';
      const stats = result.cases > 0 ? `, ${result.cases} cases` : '';
      const line = `[${String(event.index).padStart(width)}/${event.total}] ${MARK[result.result]} ${result.id} (${result.durationMs} ms, ${result.requests} requests${stats})${extra}\n`;
      if (!tty) {
        write(line);
        return;
      }
      // On a terminal only what needs attention stays on screen; passes live in the status line.
      clearStatus();
      if (result.result !== 'pass') write(line);
      if (event.index < event.total) status(event.index, event.total, runningText());
      else write(`${event.total} checks in ${formatDuration(now() - started)}\n`);
    } else if (event.type === 'check-progress') {
      if (tty) status(done + running.length, total, `${event.id}: ${event.message}`);
      else write(`        … ${event.id}: ${event.message}\n`);
    } else if (event.type === 'check-waiting') {
      const waiting = `waiting ${formatDuration(event.waitedMs)} on ${event.on} (deadline ${formatDuration(event.deadlineMs)})`;
      if (tty) status(done + running.length, total, `${event.id}: ${waiting}`);
      else write(`        … ${event.id}: ${waiting}\n`);
    } else if (event.type === 'stopped') {
      clearStatus();
      write(`stopped: ${event.reason}; ${event.remaining} check${event.remaining === 1 ? '' : 's'} not run\n`);
    }
  };
}

export interface FindingGroup {
  failure: Failure;
  /** Identical findings folded into this one (same requirement, title and message, in any check). */
  count: number;
  /** Other checks that reported the same finding (it is listed under the first). */
  alsoIn: string[];
}

/** Ids, hashes and numbers vary between otherwise identical findings; they do not make a finding different. */
function normalise(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/0x[0-9a-f]{6,}/gi, '<hex>')
    .replace(/\b\d+(\.\d+)?\b/g, '<n>');
}

/** Identical findings (same severity, requirement, title and message up to ids and numbers, in any check) folded
 * into the first with a count, in first-seen order, then grouped under their check and title. */
export function groupFindings(
  failures: Failure[],
): { checkId: string; severity: Failure['severity']; title: string; findings: FindingGroup[] }[] {
  const byKey = new Map<string, FindingGroup>();
  for (const failure of failures) {
    const key = JSON.stringify([failure.severity, failure.requirement, failure.title, normalise(failure.message)]);
    const group = byKey.get(key);
    if (!group) byKey.set(key, { failure, count: 1, alsoIn: [] });
    else {
      group.count += 1;
      if (failure.checkId !== group.failure.checkId && !group.alsoIn.includes(failure.checkId)) group.alsoIn.push(failure.checkId);
    }
  }
  const byCheck = new Map<string, { checkId: string; severity: Failure['severity']; title: string; findings: FindingGroup[] }>();
  for (const group of byKey.values()) {
    const { checkId, severity, title } = group.failure;
    const key = JSON.stringify([severity, checkId, title]);
    const entry = byCheck.get(key) ?? { checkId, severity, title, findings: [] };
    entry.findings.push(group);
    byCheck.set(key, entry);
  }
  // Failures before warnings, each in the order the run found them.
  return [...byCheck.values()].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'fail' ? -1 : 1));
}

export function renderConsoleSummary(result: RunResult): string {
  const lines: string[] = [''];
  const { summary } = result;
  const replayShown = new Set<string>();
  for (const group of groupFindings(result.failures)) {
    const total = group.findings.reduce((sum, f) => sum + f.count, 0);
    const count = total > 1 ? ` (${total} findings)` : '';
    lines.push(`${group.severity.toUpperCase()} ${group.checkId}: ${group.title}${count}`);
    for (const { failure, count: times, alsoIn } of group.findings) {
      const [first, ...rest] = failure.message.split('\n');
      lines.push(`  [${failure.requirement}]${times > 1 ? ` ×${times}` : ''} ${first}`);
      for (const line of rest) lines.push(`      ${line}`);
      if (alsoIn.length) lines.push(`      also in: ${alsoIn.join(', ')}`);
      if (failure.reproduction) {
        lines.push(`      reproduce: ${failure.reproduction}`);
        const note = curlNote(failure.reproduction);
        if (note) lines.push(`        (${note})`);
      }
    }
    // Once per check, under its first group of findings.
    if (!replayShown.has(group.checkId)) {
      replayShown.add(group.checkId);
      for (const line of replayLines(result.checks.find((check) => check.id === group.checkId)?.replay)) lines.push(`  ${line}`);
    }
    lines.push('');
  }
  const errored = result.checks.filter((check) => check.result === 'error');
  for (const check of errored) lines.push(`ERROR ${check.id}: ${check.error?.message.split('\n')[0] ?? 'error'}`);
  if (errored.length)
    lines.push(
      `  the suite could not judge ${errored.length === 1 ? 'this check' : 'these checks'} (exit 2); the stack is in the JSON report`,
      '',
    );
  if (summary.interrupted) {
    const { notRun } = summary.interrupted;
    lines.push(
      `INTERRUPTED: ${summary.interrupted.message}; ${notRun.length} check${notRun.length === 1 ? '' : 's'} not run${notRun.length ? `: ${notRun.slice(0, 6).join(', ')}${notRun.length > 6 ? ', …' : ''}` : ''}`,
      '',
    );
  }
  // What the run took where the spec is silent, each premise with how it was established; evidence for the ones it
  // could not establish (the reports carry all of it).
  if (result.premises?.length) {
    lines.push(premiseCounts(result));
    for (const row of premiseRows(result)) {
      const unconfirmed = row.status === 'assumed' || row.status === 'refuted';
      lines.push(`  ${row.id}: ${row.how}, ${row.value}${unconfirmed && row.evidence ? ` (${row.evidence})` : ''}`);
    }
  }
  const seconds = (summary.durationMs / 1000).toFixed(1);
  lines.push(`seed ${summary.seed}, ${summary.runs} runs per property${summary.strict ? ', strict' : ''}`);
  lines.push(
    `${result.checks.length} checks, ${summary.cases} generated cases, ${summary.requests} requests in ${seconds} s (${summary.casesPerSecond} cases/s)`,
  );
  for (const coverage of result.coverage) {
    lines.push(
      `${coverage.level} requirements: ${coverage.exercised}/${coverage.total} exercised (${percent(coverage.exercised, coverage.total)}), ${coverage.covered} covered by the suite`,
    );
  }
  const { counts } = summary;
  if (result.gate)
    lines.push(result.gate.met ? 'gate: met' : `gate: NOT MET (exit 1)\n${result.gate.unmet.map((u) => `  ${u}`).join('\n')}`);
  lines.push(
    `${counts.warned} warned, ${counts.notExercised} not exercised, ${counts.skipped} skipped${counts.errors ? `, ${counts.errors} error${counts.errors === 1 ? '' : 's'}` : ''}`,
  );
  lines.push(`${counts.passed} passed, ${counts.failed} failed`);
  return `${lines.join('\n')}\n`;
}
