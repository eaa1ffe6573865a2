// What `stablepay replay` reads from a report: the run (its one seed, runs per property, strictness, target and what
// it could do) and the failed or warned check to replay, with its findings and recipe. Anything missing or of the
// wrong shape is one sentence (exit 2), never a TypeError.
import type { CheckResult, Failure, RunSummary } from '../types.ts';
import { readJsonReport } from '../read-json-report.ts';
import { UsageError } from '../usage-error.ts';

export interface RecordedRun {
  file: string;
  summary: Pick<RunSummary, 'baseUrl' | 'controlUrl' | 'capabilities' | 'strict' | 'seed' | 'runs'>;
  check: CheckResult;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function readRecordedRun(source: string, checkId: string): RecordedRun {
  const { file, document } = readJsonReport(source);
  if (!isObject(document) || !isObject(document.summary) || !Array.isArray(document.checks))
    throw new UsageError(`${file}: not a conformance report (no summary and checks)`);
  const summary = document.summary as RecordedRun['summary'];
  if (!Number.isInteger(summary.seed) || !Number.isInteger(summary.runs) || typeof summary.baseUrl !== 'string')
    throw new UsageError(`${file}: its summary has no seed, runs or baseUrl`);
  const checks = document.checks.filter(isObject) as unknown as CheckResult[];
  const replayable = checks.filter((c) => c.result === 'fail' || c.result === 'warn').map((c) => c.id);
  const check = checks.find((c) => c.id === checkId);
  const choose = replayable.length
    ? `its failed and warned checks: ${replayable.join(', ')}`
    : 'it holds no failed or warned check, so nothing to replay';
  if (!check) throw new UsageError(`${file}: no check "${checkId}" (${choose})`);
  if (check.result !== 'fail' && check.result !== 'warn')
    throw new UsageError(
      `${checkId} ${check.result === 'pass' ? 'passed' : `was ${check.result}`} in ${file}: there is no failure to replay (${choose})`,
    );
  if (!Array.isArray(check.failures)) throw new UsageError(`${file}: ${checkId} has no failures list`);
  if (check.replay && !check.replay.command) throw new UsageError(`${checkId} has no replay: ${check.replay.why ?? 'none recorded'}`);
  return { file, summary, check };
}

/** Checks whose requests a cross-cutting check judged: replayed first, so it has the same calls to judge. */
export function sourceChecks(check: CheckResult): string[] {
  return [
    ...new Set(check.failures.map((f) => f.exchange?.checkId).filter((id): id is string => !!id && id !== check.id && id !== 'setup')),
  ];
}

/** The counterexamples to replay, as `--replay <property>=<path>` takes them. */
export function replayPaths(failures: Failure[]): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const { fastCheck } of failures) if (fastCheck?.property && fastCheck.path) paths[fastCheck.property] = fastCheck.path;
  return paths;
}

/** A finding is the recorded one again when it names the same requirement with the same title. */
export function sameFinding(a: Pick<Failure, 'requirement' | 'title'>, b: Pick<Failure, 'requirement' | 'title'>): boolean {
  return a.requirement === b.requirement && a.title === b.title;
}
