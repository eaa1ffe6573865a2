// Runs the selected checks one after another (several of them move the implementation's clock or
// its rate limit, so they must not overlap), classifies every result and assembles the RunResult
// that every report writer reads.
import { countResults, resultOf, severityOf } from './classify.ts';
import { CheckContext, type Finding, type RunServices } from './context.ts';
import { NotExercisedSignal, RequirementError } from './errors.ts';
import { TransportError } from './http/client.ts';
import { toCurl } from './http/curl.ts';
import type { Check } from './check.ts';
import type { Capability, CatalogueRequirement, CheckResult, Failure, RunResult } from './types.ts';
import { buildTraceability, coverageOf } from './traceability.ts';
import { buildRunMetadata, type TargetIdentity } from './integrity/run-metadata.ts';
import { capByPremises } from './premises/cap.ts';

/** A check that has not finished by then is stopped and reported as failed. */
const CHECK_TIME_LIMIT_MS = 180_000;

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

export async function runCheck(check: Check, services: RunServices, plan: RunPlan, index: number, total: number): Promise<CheckResult> {
  const { options, recorder } = services;
  recorder.currentCheck = check.id;
  const requestsBefore = recorder.all().filter((e) => e.checkId === check.id).length;
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
  let notExercised: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeLimit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`check did not finish within ${CHECK_TIME_LIMIT_MS / 1000} s`)), CHECK_TIME_LIMIT_MS);
    });
    await Promise.race([check.run(ctx), timeLimit]);
  } catch (error) {
    const finding = findingFromError(error, check, services);
    if (finding) ctx.findings.push(finding);
    else if (error instanceof NotExercisedSignal) notExercised = error.reason;
  } finally {
    clearTimeout(timer);
    await ctx.runCleanups();
  }
  const failures: Failure[] = ctx.findings.map(({ level, premises, ...finding }) => {
    // A finding on a premise the run could not establish is at most a warning (premises/cap.ts).
    const capped = capByPremises(level ?? services.catalogue.get(finding.requirement)?.level ?? check.level, premises ?? ctx.consultedPremises, services.premises);
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
  const requests = recorder.all().filter((e) => e.checkId === check.id).length - requestsBefore;
  const durationMs = Math.round(performance.now() - started);
  const base = { ...metaOf(check), requirements: cited, judged, failures, durationMs, cases: ctx.cases, requests, seed: options.seed };
  // A check that found nothing before it lost a capability did not exercise its requirement.
  if (notExercised !== undefined && failures.length === 0) return { ...base, result: 'not-exercised', reason: notExercised };
  return { ...base, result: resultOf(failures), ...(notExercised ? { reason: `stopped early: ${notExercised}` } : {}) };
}

function findingFromError(error: unknown, check: Check, services: RunServices): Finding | null {
  if (error instanceof NotExercisedSignal) return null;
  if (error instanceof RequirementError) {
    return {
      requirement: error.requirement,
      title: error.title,
      message: error.message,
      reproduction: error.exchange ? toCurl(error.exchange, services.secrets) : null,
      ...(error.premises ? { premises: error.premises } : {}),
    };
  }
  if (error instanceof TransportError) {
    return {
      requirement: check.requirements[0]!,
      title: 'The implementation did not answer',
      message: error.message,
      reproduction: toCurl(error.exchange, services.secrets),
    };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}\n${(error.stack ?? '').split('\n').slice(1, 4).join('\n')}` : String(error);
  return { requirement: check.requirements[0]!, title: 'The check raised an unexpected error', message, reproduction: null };
}

export async function runPlan(plan: RunPlan, services: RunServices): Promise<CheckResult[]> {
  const { options } = services;
  const total = plan.selected.length;
  options.onProgress({ type: 'start', total, capabilities: plan.capabilities, notes: plan.capabilityNotes, seed: options.seed });
  const results: CheckResult[] = [];
  let failed = 0;
  for (const [index, check] of plan.selected.entries()) {
    options.onProgress({ type: 'check-start', index: index + 1, total, id: check.id, title: check.title });
    const result = await runCheck(check, services, plan, index + 1, total);
    results.push(result);
    options.onProgress({ type: 'check-end', index: index + 1, total, result });
    if (result.result === 'fail') failed += 1;
    if (options.maxFailures !== null && failed >= options.maxFailures && index + 1 < total) {
      // --max-failures / -x: what ran is reported; the rest is skipped with the reason, never shown as passed.
      const reason = `not run: the run stopped after ${failed} failed check${failed === 1 ? '' : 's'} (--max-failures ${options.maxFailures})`;
      const rest = plan.selected.slice(index + 1);
      options.onProgress({ type: 'stopped', reason, remaining: rest.length });
      for (const skipped of rest) results.push({ ...metaOf(skipped), result: 'skipped', reason, failures: [], durationMs: 0, cases: 0, requests: 0 });
      break;
    }
  }
  for (const { check, reason } of plan.skipped) {
    results.push({ ...metaOf(check), result: 'skipped', reason, failures: [], durationMs: 0, cases: 0, requests: 0 });
  }
  return results;
}

export function assembleResult(
  results: CheckResult[],
  plan: RunPlan,
  services: RunServices,
  catalogue: CatalogueRequirement[],
  timing: { startedAt: Date; finishedAt: Date; version: string; started?: TargetIdentity['started'] },
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
    },
    checks: results,
    failures: results.flatMap((r) => r.failures),
    traceability,
    coverage: coverageOf(traceability),
    premises: services.premises.records(),
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
