// `stablepay replay <report> --check <id>`: runs a failed or warned check of a report again against the
// implementation, with the person's own credentials. The check is the recipe: it makes again what it needs (its own
// payments and cursors; with a control API a merchant and a test clock of the replay's own, never the merchant the
// suite made in the recorded run, whose key no report holds) and repeats its requests with the run's one seed and
// the recorded fast-check counterexamples. A cross-cutting check's findings are about other checks' requests: those
// checks run first. Then it says what was sent and what came back, and whether the recorded failure reproduces.
import { runConformance } from '../index.ts';
import type { CheckResult, ExchangeSummary } from '../types.ts';
import { ownSecretWhere } from '../reproduction/secret-needs.ts';
import { readRecordedRun, replayPaths, sameFinding, sourceChecks, type RecordedRun } from './recorded.ts';

export interface ReplayCheckInput {
  /** The report directory or its conformance.json. */
  report: string;
  checkId: string;
  /** Default: the recorded run's base URL (and its control API). */
  baseUrl?: string;
  apiKey?: string;
  controlToken?: string;
  secondApiKey?: string;
  headers?: Record<string, string>;
  write: (text: string) => void;
  signal?: AbortSignal;
}

/** 1: the check fails again (the failure reproduces); 0: it passes now; 2: it could not be judged. */
export type ReplayExitCode = 0 | 1 | 2;

export async function replayCheck(input: ReplayCheckInput): Promise<ReplayExitCode> {
  const recorded = readRecordedRun(input.report, input.checkId);
  const { summary, check } = recorded;
  const baseUrl = input.baseUrl ?? summary.baseUrl;
  const sources = sourceChecks(check);
  const out = (line = '') => input.write(`${line}\n`);
  out(
    `replaying ${check.id} from ${recorded.file} (run seed ${summary.seed}, ${summary.runs} runs per property${summary.strict ? ', strict' : ''})`,
  );
  out(`against ${baseUrl}${input.baseUrl ? '' : ' (the recorded run’s target)'}`);
  if (sources.length)
    out(`first ${sources.join(', ')}: ${check.id} judges the requests ${sources.length === 1 ? 'it makes' : 'they make'}`);
  out();
  out('recorded:');
  for (const failure of check.failures) out(`  ${failure.severity.toUpperCase()} [${failure.requirement}] ${failure.title}`);

  const run = (replay: Record<string, string>) =>
    runConformance({
      baseUrl,
      ...(input.baseUrl === undefined && summary.controlUrl ? { controlUrl: summary.controlUrl } : {}),
      // As the recorded run could: no control API or receiver where it had none.
      control: summary.capabilities.control,
      webhooks: summary.capabilities['webhook-receiver'],
      ...(input.apiKey ? { apiKey: input.apiKey } : {}),
      ...(input.controlToken ? { controlToken: input.controlToken } : {}),
      ...(input.secondApiKey ? { secondApiKey: input.secondApiKey } : {}),
      ...(input.headers ? { headers: input.headers } : {}),
      only: [...sources, check.id],
      seed: summary.seed,
      runs: summary.runs,
      strict: summary.strict,
      replay,
      // No report of the replay: its JSON goes to a sink that drops it, nothing else is written.
      formats: ['json'],
      progress: false,
      write: () => {},
      ...(input.signal ? { signal: input.signal } : {}),
    });
  const paths = replayPaths(check.failures);
  let { result } = await run(paths);
  let again = result.checks.find((c) => c.id === check.id);
  // A model's command list carries its own replay path, which fast-check's path replay cannot always follow: the
  // run's seed alone runs the property as the run did (and shrinks it the same way), only slower.
  if (again?.result === 'error' && Object.keys(paths).length > 0 && /replay/i.test(again.error?.message ?? '')) {
    out();
    out(
      `note: the recorded counterexample path did not replay (${again.error?.message.split('\n')[0]}); running the property again from the run seed`,
    );
    ({ result } = await run({}));
    again = result.checks.find((c) => c.id === check.id);
  }
  out();
  for (const note of result.summary.capabilityNotes) out(`note: ${note}`);
  return verdict(recorded, again, out);
}

function verdict(recorded: RecordedRun, again: CheckResult | undefined, out: (line?: string) => void): ReplayExitCode {
  const { check } = recorded;
  if (!again || (again.result !== 'pass' && again.result !== 'fail' && again.result !== 'warn')) {
    const why = again?.result === 'error' ? again.error?.message.split('\n')[0] : again?.reason;
    out(`COULD NOT JUDGE: ${check.id} was ${again?.result ?? 'not run'}${why ? ` (${why})` : ''}`);
    return 2;
  }
  out(`replayed ${check.id}: ${again.result}, ${again.requests} requests, ${again.durationMs} ms`);
  for (const failure of again.failures) {
    const known = check.failures.some((f) => sameFinding(f, failure));
    out(`  ${failure.severity.toUpperCase()} [${failure.requirement}] ${failure.title}${known ? '' : '  (not in the report)'}`);
    for (const line of failure.message.split('\n').slice(0, 6)) out(`    ${line}`);
    if (failure.exchange) for (const line of exchangeLines(failure.exchange)) out(`    ${line}`);
  }
  out();
  if (again.result === 'pass') {
    out(
      `NOT REPRODUCED: ${check.id} passed (the ${check.failures.length === 1 ? 'failure' : `${check.failures.length} findings`} recorded in the report did not recur)`,
    );
    return 0;
  }
  const reproduced = check.failures.filter((f) => again.failures.some((g) => sameFinding(f, g)));
  out(
    reproduced.length > 0
      ? `REPRODUCED: ${reproduced.length} of ${check.failures.length} recorded finding${check.failures.length === 1 ? '' : 's'} again: ${[...new Set(reproduced.map((f) => f.title))].join('; ')}`
      : `REPRODUCED (differently): ${check.id} ${again.result === 'fail' ? 'fails' : 'warns'} again, but none of its findings is the recorded one`,
  );
  return 1;
}

/** What was sent and what came back, credentials as the variable of whose key it was (never the key). */
export function exchangeLines(exchange: ExchangeSummary): string[] {
  const lines = [`sent:      ${exchange.method} ${exchange.url}${exchange.credential ? `  (as ${whose(exchange.credential)})` : ''}`];
  if (exchange.requestBody !== undefined) lines.push(`           ${oneLine(exchange.requestBody)}`);
  lines.push(
    exchange.transportError
      ? `came back: no answer (${exchange.transportError})`
      : `came back: ${exchange.status} ${oneLine(exchange.responseBody)}`,
  );
  return lines;
}

function whose(variable: string): string {
  if (ownSecretWhere(variable)) return `$${variable}, your key`;
  return `${variable}: made by the replay itself, its key not shown`;
}

function oneLine(text: string, max = 600): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
