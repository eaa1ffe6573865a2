// Runs one check in its request scope with what the scheduler granted it (scheduling/), classifies its result, and
// assembles the RunResult that every report writer reads.
import { countResults, resultOf, severityOf } from './classify.ts';
import { endingOf, type CheckEnding } from './check-outcome.ts';
import { CheckContext, type RunServices } from './context.ts';
import { RequestScope, ScopeAborted, runInScope } from './http/request-scope.ts';
import type { Check } from './check.ts';
import type { RunStop } from './run-stop.ts';
import { formatSeconds } from './units.ts';
import type { Capability, CatalogueRequirement, CheckResult, Failure, RunInterruption, RunLimits, RunResult } from './types.ts';
import { claimsOf, type Claims, type RunShape } from './scheduling/resources.ts';
import { buildTraceability, coverageOf } from './traceability.ts';
import { buildRunMetadata, type TargetIdentity } from './run-metadata.ts';
import { capByPremises } from './premises/cap.ts';
import { replayRecipeFor, type RecipeRun } from './reproduction/recipe.ts';
import { onOwnClock } from './own-clock.ts';
import { NotExercisedSignal } from './errors.ts';

/**
 * Once the run stops (a signal, --max-run-time), the running check has STOP_GRACE_MS to end as usual; then its requests
 * are aborted and it has ABORT_GRACE_MS more before it is left behind. A few seconds in all, whatever it waits on.
 */
const STOP_GRACE_MS = 3_000;
const ABORT_GRACE_MS = 2_000;
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
  const { id, title, requirements, level, needs, tags, premises } = check;
  return { id, title, requirements, level, needs, tags, premises, judged: [] as string[] };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves when the check has ended or `graceMs` has passed, whichever is first. */
const endedOrAfter = (ran: Promise<unknown>, graceMs: number): Promise<unknown> => Promise.race([ran, delay(graceMs)]);

/**
 * Runs the check in its request scope. It ends by itself (its ending as classified), or past its time limit (an
 * error), or cut short by the run's stop (`aborted`: its requests were aborted; only what it found before counts).
 */
async function settle(
  check: Check,
  ctx: CheckContext,
  stop: AbortSignal | undefined,
  claims: Claims,
): Promise<{ ending: CheckEnding; findingsKept?: number }> {
  const { services } = ctx;
  const giveUp = new AbortController();
  const scope = new RequestScope(check.id, giveUp.signal, claims);
  const ran = runInScope(scope, () => check.run(ctx)).then<CheckEnding, CheckEnding>(
    () => ({ kind: 'finished' }),
    (error) => endingOf(error, check, services),
  );
  const timers: NodeJS.Timeout[] = [];
  let onStop: (() => void) | undefined;
  let findingsKept: number | undefined;
  let cutEnding: CheckEnding | undefined;
  /** Aborts the check's requests: its ending is `ending` however it ends now, and what it reports from then on is not kept. */
  const cut = (reason: unknown, ending: CheckEnding): Promise<CheckEnding> => {
    cutEnding = ending;
    findingsKept = ctx.findings.length;
    giveUp.abort(reason);
    return endedOrAfter(ran, ABORT_GRACE_MS).then(() => ending);
  };
  const limitMs = services.options.checkTimeLimitMs;
  const limit = new Promise<CheckEnding>((resolve) => {
    timers.push(
      setTimeout(() => {
        const why = `the check did not finish within ${formatSeconds(limitMs)}`;
        void cut(new ScopeAborted(why), { kind: 'error', error: { message: `${why}; its requests were aborted` } }).then(resolve);
      }, limitMs),
    );
  });
  const stopped = new Promise<CheckEnding>((resolve) => {
    if (!stop) return;
    onStop = () => void timers.push(setTimeout(() => void cut(stop.reason, { kind: 'aborted' }).then(resolve), STOP_GRACE_MS));
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
  });
  const waiting = showWaits(scope, (event) => services.options.onProgress(event));
  try {
    const ended = await Promise.race([ran, limit, stopped]);
    // A check that ended only because its requests were aborted has the cutter's ending, not its own.
    const ending = cutEnding ?? ended;
    return { ending, ...(findingsKept !== undefined ? { findingsKept } : {}) };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    clearInterval(waiting);
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}

/** Says on the console which request the running check waits on, once it has waited a while. */
function showWaits(
  scope: RequestScope,
  emit: (event: { type: 'check-waiting'; id: string; on: string; waitedMs: number; deadlineMs: number }) => void,
): NodeJS.Timeout {
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

/** Runs one check holding `claims` (what the scheduler granted it; its cleanups hold them too) and classifies its result. */
export async function runCheck(
  check: Check,
  services: RunServices,
  plan: RunPlan,
  claims: Claims = claimsOf(check, runShapeOf(plan, services)),
): Promise<CheckResult> {
  const { options, recorder } = services;
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
  if (claims.lane && services.lanes) {
    // On a spare instance of its own for its whole run, cleanups included; the next such check reuses it (lanes.ts).
    const pool = services.lanes;
    const lane = await pool.acquire();
    options.onProgress({
      type: 'check-progress',
      id: check.id,
      message: `on spare target instance ${lane.number} (${lane.world.api.options.baseUrl})`,
    });
    try {
      return await runCheck(check, lane.world, plan, claims);
    } finally {
      pool.release(lane);
    }
  }
  if (claims.ownClock) {
    // Made in the check's scope: its requests are the check's, and a control API that cannot make it leaves the check
    // not exercised, as any control call that does not answer as documented.
    const setupScope = new RequestScope(check.id, services.stop ?? new AbortController().signal, claims);
    try {
      const own = await runInScope(setupScope, () => onOwnClock(services, check.id));
      claims.ownClockId = own.clockId;
      services = own.services;
    } catch (error) {
      const reason =
        error instanceof NotExercisedSignal
          ? error.reason
          : `its own test clock could not be made: ${error instanceof Error ? error.message : String(error)}`;
      const requests = recorder.countFor(check.id) - requestsBefore;
      return {
        ...metaOf(check),
        result: 'not-exercised',
        reason,
        failures: [],
        durationMs: Math.round(performance.now() - started),
        cases: 0,
        requests,
      };
    }
  }
  const ctx = new CheckContext(check, services, (message) => options.onProgress({ type: 'check-progress', id: check.id, message }));
  const stop = services.stop;
  const { ending, findingsKept } = await settle(check, ctx, stop, claims);
  // Cleanups restore what the check changed, also on a stopping run: they get a scope of their own and a time limit.
  // The check's ACTIVE payments are cancelled there too: they would all expire at a later check's clock jump, loading
  // the target while that check times.
  const cleanupScope = new RequestScope(check.id, AbortSignal.timeout(CLEANUP_LIMIT_MS), claims);
  const cleanups = async () => {
    await ctx.runCleanups();
    await services.createdPayments?.cancelActive(check.id).catch(() => 0);
  };
  await Promise.race([runInScope(cleanupScope, cleanups), delay(CLEANUP_LIMIT_MS)]);

  const stoppedBy = ending.kind === 'aborted' && stop?.aborted ? (stop.reason as RunStop) : undefined;
  const findings = findingsKept !== undefined ? ctx.findings.slice(0, findingsKept) : [...ctx.findings];
  if (ending.kind === 'finding') findings.push(ending.finding);
  const failures: Failure[] = findings.map(({ level, premises, ...finding }) => {
    // A finding on a premise the run could not establish is at most a warning (premises/cap.ts).
    const capped = capByPremises(
      level ?? services.catalogue.get(finding.requirement)?.level ?? check.level,
      premises ?? ctx.consultedPremises,
      services.premises,
    );
    return {
      checkId: check.id,
      severity: severityOf(capped.level, options.strict),
      ...finding,
      message: finding.message + capped.note,
      ...(capped.unconfirmed.length > 0 ? { unconfirmedPremises: capped.unconfirmed } : {}),
    };
  });
  // Cross-cutting checks may cite the contract's more specific IDs; the matrix must show them.
  const cited = [...new Set([...check.requirements, ...failures.map((f) => f.requirement).filter((id) => services.catalogue.has(id))])];
  const judged = cited.filter((id) => ctx.judgedRequirements.has(id) || failures.some((f) => f.requirement === id));
  const requests = recorder.countFor(check.id) - requestsBefore;
  const durationMs = Math.round(performance.now() - started);
  const base = { ...metaOf(check), requirements: cited, judged, failures, durationMs, cases: ctx.cases, requests, seed: options.seed };
  if (stoppedBy) {
    const why = `${stoppedBy.message} while this check ran`;
    return failures.length > 0
      ? { ...base, result: resultOf(failures), reason: `stopped early: ${why}` }
      : { ...base, result: 'not-exercised', reason: why };
  }
  if (ending.kind === 'error') return { ...base, result: 'error', error: ending.error };
  if (ending.kind === 'aborted')
    return { ...base, result: 'error', error: { message: 'its requests were aborted although the run was not stopping' } };
  // A check that found nothing before it lost a capability did not exercise its requirement.
  if (ending.kind === 'not-exercised' && failures.length === 0) return { ...base, result: 'not-exercised', reason: ending.reason };
  return { ...base, result: resultOf(failures), ...(ending.kind === 'not-exercised' ? { reason: `stopped early: ${ending.reason}` } : {}) };
}

/** What the scheduler needs to know of the run to turn a check's declaration into its claims. */
export const runShapeOf = (plan: RunPlan, services: RunServices): RunShape => ({
  control: plan.capabilities.control,
  testClocks: Boolean(services.control?.testClock),
  browserCapacity: services.customer?.agent.options.parallel ?? 1,
  lanes: services.lanes?.size ?? 0,
});

export const limitsOf = ({ requestTimeoutMs, maxResponseBytes, maxRunTimeMs }: RunServices['options']): RunLimits => ({
  requestTimeoutMs,
  maxResponseBytes,
  maxRunTimeMs,
});

export const notRun = (check: Check, reason: string): CheckResult => ({
  ...metaOf(check),
  result: 'skipped',
  reason,
  failures: [],
  durationMs: 0,
  cases: 0,
  requests: 0,
});

function withReplay(check: CheckResult, run: RecipeRun): CheckResult {
  const replay = replayRecipeFor(check, run);
  return replay ? { ...check, replay } : check;
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
      limits: limitsOf(options),
      ...(timing.interrupted ? { interrupted: timing.interrupted } : {}),
    },
    checks: results.map((check) =>
      withReplay(check, { options, startedTarget: Boolean(timing.started), control: plan.capabilities.control }),
    ),
    failures: results.flatMap((r) => r.failures),
    traceability,
    coverage: coverageOf(traceability),
    premises: services.premises.records(),
    metadata: buildRunMetadata({
      version: timing.version,
      seed: options.seed,
      target: {
        baseUrl: options.baseUrl,
        controlUrl: plan.capabilities.control ? options.controlUrl : null,
        ...(timing.started ? { started: timing.started } : {}),
      },
      startedAt: timing.startedAt,
      finishedAt: timing.finishedAt,
      requirements: catalogue.length,
    }),
  };
  // Reports are written from this object only: scrub every string in it once, here.
  return services.secrets.scrubValue(result);
}
