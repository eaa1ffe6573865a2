// Runs the selected checks one after another (several of them move the implementation's clock or
// its rate limit, so they must not overlap), classifies every result and assembles the RunResult
// that every report writer reads.
import { countResults, resultOf, severityOf } from './classify.ts';
import { endingOf, type CheckEnding } from './check-outcome.ts';
import { CheckContext, type RunServices } from './context.ts';
import { RequestScope, ScopeAborted, runInScope } from './http/request-scope.ts';
import type { Check } from './check.ts';
import type { RunStop } from './run-stop.ts';
import { formatSeconds } from './support/units.ts';
import type { Capability, CatalogueRequirement, CheckResult, Failure, RunInterruption, RunResult } from './types.ts';
import { buildTraceability, coverageOf } from './traceability.ts';
import { buildRunMetadata, type TargetIdentity } from './integrity/run-metadata.ts';

/** A check that has not finished by then is given up: its requests are aborted and its result is `error`. */
const CHECK_TIME_LIMIT_MS = 180_000;
/** Once the run stops (a signal, --max-run-time), the running check's requests are aborted and it has this long to end. */
const STOP_GRACE_MS = 3_000;
/** A check's cleanups (restoring what it changed) get this long, also when the run is stopping. */
const CLEANUP_LIMIT_MS = 10_000;
/** A request the running check has waited on this long is shown on the console, and again every WAIT_REPEAT_MS. */
const WAIT_SHOWN_AFTER_MS = 3_000;
const WAIT_REPEAT_MS = 10_000;

export interface RunPlan {
  selected: Check[];
  skipped: { check: Check; reason: string }[];
  capabilities: Record<Capability, boolean>;
  capabilityNotes: string[];
}

function metaOf(check: Check) {
  const { id, title, requirements, level, needs, tags } = check;
  return { id, title, requirements, level, needs, tags };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The check's ending, or `fallback` when it has not ended `graceMs` after it was asked to stop. */
function withinGrace(ran: Promise<CheckEnding>, graceMs: number, fallback: CheckEnding): Promise<CheckEnding> {
  return Promise.race([ran, delay(graceMs).then(() => fallback)]);
}

/** Runs the check in its own request scope; ends at its own end, its time limit or the run's stop, whichever is first. */
async function settle(check: Check, ctx: CheckContext, scope: RequestScope, giveUp: AbortController, stop: AbortSignal | undefined): Promise<{ ending: CheckEnding; findingsAtStop?: number }> {
  const { services } = ctx;
  const ran = runInScope(scope, () => check.run(ctx)).then<CheckEnding, CheckEnding>(
    () => ({ kind: 'finished' }),
    (error) => endingOf(error, check, services),
  );
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  let findingsAtStop: number | undefined;
  const limit = new Promise<CheckEnding>((resolve) => {
    timer = setTimeout(() => {
      const why = `the check did not finish within ${formatSeconds(CHECK_TIME_LIMIT_MS)}`;
      giveUp.abort(new ScopeAborted(why));
      resolve(withinGrace(ran, STOP_GRACE_MS, { kind: 'error', error: { message: `${why}; its requests were aborted` } }).then((ending) => (ending.kind === 'aborted' ? { kind: 'error', error: { message: `${why}; its requests were aborted` } } : ending)));
    }, CHECK_TIME_LIMIT_MS);
  });
  const stopped = new Promise<CheckEnding>((resolve) => {
    if (!stop) return;
    onStop = () => {
      // What the check found before the stop stands; what its aborted requests make it report afterwards does not.
      findingsAtStop = ctx.findings.length;
      resolve(withinGrace(ran, STOP_GRACE_MS, { kind: 'aborted' }));
    };
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
  });
  const waiting = showWaits(scope, (event) => services.options.onProgress(event));
  try {
    const ending = await Promise.race([ran, limit, stopped]);
    return { ending, ...(findingsAtStop !== undefined ? { findingsAtStop } : {}) };
  } finally {
    clearTimeout(timer);
    clearInterval(waiting);
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}

/** Says on the console which request the running check waits on, once it has waited a while. */
function showWaits(scope: RequestScope, emit: (event: { type: 'check-waiting'; id: string; on: string; waitedMs: number; deadlineMs: number }) => void): NodeJS.Timeout {
  const lastShown = new WeakMap<object, number>();
  const timer = setInterval(() => {
    const oldest = scope.oldestPending();
    if (!oldest) return;
    const now = Date.now();
    const waitedMs = now - oldest.startedAt;
    if (waitedMs < WAIT_SHOWN_AFTER_MS || now - (lastShown.get(oldest) ?? 0) < WAIT_REPEAT_MS) return;
    lastShown.set(oldest, now);
    emit({ type: 'check-waiting', id: scope.checkId, on: `${oldest.method} ${oldest.url}`, waitedMs, deadlineMs: oldest.deadlineMs });
  }, 500);
  timer.unref();
  return timer;
}

export async function runCheck(check: Check, services: RunServices, plan: RunPlan, index: number, total: number): Promise<CheckResult> {
  const { options, recorder } = services;
  recorder.currentCheck = check.id;
  const requestsBefore = recorder.countFor(check.id);
  const started = performance.now();
  const missing = check.needs.filter((need) => !plan.capabilities[need]);
  if (missing.length > 0) {
    return {
      ...metaOf(check),
      result: 'not-exercised',
      reason: `needs ${missing.join(', ')}: ${plan.capabilityNotes.join('; ') || 'not available in this run'}`,
      failures: [],
      durationMs: 0,
      cases: 0,
      requests: 0,
    };
  }
  const ctx = new CheckContext(check, services, (message) => options.onProgress({ type: 'check-progress', id: check.id, message }));
  const giveUp = new AbortController();
  const stop = services.stop;
  const scope = new RequestScope(check.id, stop ? AbortSignal.any([giveUp.signal, stop]) : giveUp.signal);
  const { ending, findingsAtStop } = await settle(check, ctx, scope, giveUp, stop);
  // Cleanups restore what the check changed, also on a stopping run: they get a scope of their own and a time limit.
  const cleanupScope = new RequestScope(check.id, AbortSignal.timeout(CLEANUP_LIMIT_MS));
  await Promise.race([runInScope(cleanupScope, () => ctx.runCleanups()), delay(CLEANUP_LIMIT_MS)]);

  const stoppedBy = stop?.aborted && ending.kind !== 'finished' ? (stop.reason as RunStop) : undefined;
  const findings = findingsAtStop !== undefined ? ctx.findings.slice(0, findingsAtStop) : [...ctx.findings];
  if (ending.kind === 'finding' && !stoppedBy) findings.push(ending.finding);
  const failures: Failure[] = findings.map(({ level, ...finding }) => ({
    checkId: check.id,
    severity: severityOf(level ?? services.catalogue.get(finding.requirement)?.level ?? check.level, options.strict),
    ...finding,
  }));
  // Cross-cutting checks may cite the contract's more specific IDs; the matrix must show them.
  const cited = [...new Set([...check.requirements, ...failures.map((f) => f.requirement).filter((id) => services.catalogue.has(id))])];
  const requests = recorder.countFor(check.id) - requestsBefore;
  const durationMs = Math.round(performance.now() - started);
  const base = { ...metaOf(check), requirements: cited, failures, durationMs, cases: ctx.cases, requests, seed: options.seed };
  if (stoppedBy) {
    const why = `${stoppedBy.message} while this check ran`;
    return failures.length > 0 ? { ...base, result: resultOf(failures), reason: `stopped early: ${why}` } : { ...base, result: 'not-exercised', reason: why };
  }
  if (ending.kind === 'error') return { ...base, result: 'error', error: ending.error };
  // A check that found nothing before it lost a capability did not exercise its requirement.
  if (ending.kind === 'not-exercised' && failures.length === 0) return { ...base, result: 'not-exercised', reason: ending.reason };
  return { ...base, result: resultOf(failures), ...(ending.kind === 'not-exercised' ? { reason: `stopped early: ${ending.reason}` } : {}) };
}

const notRun = (check: Check, reason: string): CheckResult => ({ ...metaOf(check), result: 'skipped', reason, failures: [], durationMs: 0, cases: 0, requests: 0 });

export interface PlanOutcome {
  results: CheckResult[];
  /** Set when a signal or --max-run-time stopped the run before its plan was done. */
  interrupted?: RunInterruption;
}

export async function runPlan(plan: RunPlan, services: RunServices): Promise<PlanOutcome> {
  const { options } = services;
  const total = plan.selected.length;
  options.onProgress({ type: 'start', total, capabilities: plan.capabilities, notes: plan.capabilityNotes, seed: options.seed });
  const results: CheckResult[] = [];
  let failed = 0;
  let interrupted: RunInterruption | undefined;
  for (const [index, check] of plan.selected.entries()) {
    if (services.stop?.aborted) {
      // Interrupted (a signal, --max-run-time): what ran is reported; the rest is listed as not run.
      const stop = services.stop.reason as RunStop;
      const rest = plan.selected.slice(index);
      interrupted = { by: stop.by, message: `${stop.message} after ${index} of ${total} checks`, notRun: rest.map((c) => c.id) };
      options.onProgress({ type: 'stopped', reason: stop.message, remaining: rest.length });
      for (const skipped of rest) results.push(notRun(skipped, `not run: ${stop.message}`));
      break;
    }
    options.onProgress({ type: 'check-start', index: index + 1, total, id: check.id, title: check.title });
    const result = await runCheck(check, services, plan, index + 1, total);
    results.push(result);
    options.onProgress({ type: 'check-end', index: index + 1, total, result });
    if (result.result === 'fail') failed += 1;
    const rest = plan.selected.slice(index + 1);
    if (services.stop?.aborted && rest.length === 0) {
      const stop = services.stop.reason as RunStop;
      interrupted = { by: stop.by, message: `${stop.message} during the last check`, notRun: [] };
    }
    if (options.maxFailures !== null && failed >= options.maxFailures && rest.length > 0) {
      // --max-failures / -x: what ran is reported; the rest is skipped with the reason, never shown as passed.
      const reason = `not run: the run stopped after ${failed} failed check${failed === 1 ? '' : 's'} (--max-failures ${options.maxFailures})`;
      options.onProgress({ type: 'stopped', reason, remaining: rest.length });
      for (const skipped of rest) results.push(notRun(skipped, reason));
      break;
    }
  }
  for (const { check, reason } of plan.skipped) results.push(notRun(check, reason));
  return { results, ...(interrupted ? { interrupted } : {}) };
}

export function assembleResult(
  results: CheckResult[],
  plan: RunPlan,
  services: RunServices,
  catalogue: CatalogueRequirement[],
  timing: { startedAt: Date; finishedAt: Date; version: string; started?: TargetIdentity['started']; interrupted?: RunInterruption },
): RunResult {
  const { options } = services;
  const durationMs = timing.finishedAt.getTime() - timing.startedAt.getTime();
  const cases = results.reduce((sum, r) => sum + r.cases, 0);
  const traceability = buildTraceability(catalogue, results);
  const result: RunResult = {
    summary: {
      tool: { name: 'stablepay conformance', version: timing.version },
      baseUrl: options.baseUrl,
      controlUrl: plan.capabilities.control ? options.controlUrl : null,
      capabilities: plan.capabilities,
      capabilityNotes: plan.capabilityNotes,
      strict: options.strict,
      seed: options.seed,
      runs: options.runs,
      startedAt: timing.startedAt.toISOString(),
      finishedAt: timing.finishedAt.toISOString(),
      durationMs,
      counts: countResults(results),
      cases,
      requests: services.recorder.size,
      casesPerSecond: durationMs > 0 ? Math.round((cases / durationMs) * 1000 * 10) / 10 : 0,
      limits: { requestTimeoutMs: options.requestTimeoutMs, maxResponseBytes: options.maxResponseBytes, maxRunTimeMs: options.maxRunTimeMs },
      ...(timing.interrupted ? { interrupted: timing.interrupted } : {}),
    },
    checks: results,
    failures: results.flatMap((r) => r.failures),
    traceability,
    coverage: coverageOf(traceability),
    metadata: buildRunMetadata({
      version: timing.version,
      seed: options.seed,
      target: { baseUrl: options.baseUrl, controlUrl: plan.capabilities.control ? options.controlUrl : null, ...(timing.started ? { started: timing.started } : {}) },
      startedAt: timing.startedAt,
      finishedAt: timing.finishedAt,
      requirements: catalogue.length,
    }),
  };
  // Reports are written from this object only: scrub every string in it once, here.
  return services.secrets.scrubValue(result);
}
