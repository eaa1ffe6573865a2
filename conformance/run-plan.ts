// The run's plan carried out: checks side by side as their claims allow (scheduler.ts), progress as each starts and
// ends (with the checks still running), results in the plan's order whatever finished first, and the rest listed as
// not run when a signal, --max-run-time or --max-failures stops the run.
import type { RunServices } from './context.ts';
import type { RunStop } from './run-stop.ts';
import { limitsOf, notRun, runCheck, runShapeOf, type RunPlan } from './runner.ts';
import type { CheckResult, RunInterruption } from './types.ts';
import { claimsOf, type Claims } from './scheduling/resources.ts';
import { runOrder, runScheduled } from './scheduling/scheduler.ts';

export interface PlanOutcome {
  /** In the plan's order (the order of --list, cross-cutting checks last), then the checks not selected. */
  results: CheckResult[];
  /** Set when a signal or --max-run-time stopped the run before its plan was done. */
  interrupted?: RunInterruption;
}

export async function runPlan(plan: RunPlan, services: RunServices): Promise<PlanOutcome> {
  const { options } = services;
  const total = plan.selected.length;
  const browserCapacity = services.customer?.agent.options.parallel ?? 1;
  options.onProgress({
    type: 'start',
    total,
    capabilities: plan.capabilities,
    notes: plan.capabilityNotes,
    seed: options.seed,
    limits: limitsOf(options),
    workers: options.workers,
  });
  const claims = plan.selected.map((check) => claimsOf(check, runShapeOf(plan, services)));
  const results: (CheckResult | undefined)[] = new Array(total);
  const running = new Set<string>();
  let failed = 0;
  let finished = 0;
  let failedOut: string | undefined;
  const notStarted = await runScheduled(
    claims,
    runOrder(claims, (index) => rankOf(plan.selected[index]!.tags, claims[index]!, services.customer ? browserCapacity : null)),
    { workers: options.workers, browserCapacity, laneCapacity: services.lanes?.size ?? 0 },
    {
      mayStart: () => !services.stop?.aborted && failedOut === undefined,
      run: async (index) => {
        const check = plan.selected[index]!;
        running.add(check.id);
        options.onProgress({ type: 'check-start', index: index + 1, total, id: check.id, title: check.title, running: [...running] });
        // runCheck turns what a check throws into its result; anything else escaping is the runner's bug, shown as an error.
        const result = await runCheck(check, services, plan, claims[index]!).catch(
          (error: unknown): CheckResult => ({
            ...notRun(check, ''),
            result: 'error',
            error: { message: `the runner broke: ${error instanceof Error ? error.message : String(error)}` },
          }),
        );
        running.delete(check.id);
        results[index] = result;
        finished += 1;
        options.onProgress({ type: 'check-end', index: finished, total, result, running: [...running] });
        if (result.result === 'fail') failed += 1;
        // --max-failures / -x: nothing more starts; what runs ends as usual and is reported.
        if (options.maxFailures !== null && failed >= options.maxFailures && failedOut === undefined)
          failedOut = `not run: the run stopped after ${failed} failed check${failed === 1 ? '' : 's'} (--max-failures ${options.maxFailures})`;
      },
      alone: (index) => {
        const claim = claims[index]!;
        options.onProgress({
          type: 'check-progress',
          id: plan.selected[index]!.id,
          message: `alone from here on (${[...claim.exclusive].join(', ')})`,
        });
      },
    },
  );
  let interrupted: RunInterruption | undefined;
  const rest = notStarted.map((index) => plan.selected[index]!);
  if (services.stop?.aborted) {
    // Interrupted (a signal, --max-run-time): what ran is reported; the rest is listed as not run.
    const stop = services.stop.reason as RunStop;
    const started = total - rest.length;
    interrupted = {
      by: stop.by,
      message: rest.length > 0 ? `${stop.message} after ${started} of ${total} checks` : `${stop.message} during the last check`,
      notRun: rest.map((c) => c.id),
    };
    if (rest.length > 0) options.onProgress({ type: 'stopped', reason: stop.message, remaining: rest.length });
    for (const index of notStarted) results[index] = notRun(plan.selected[index]!, `not run: ${stop.message}`);
  } else if (failedOut !== undefined && rest.length > 0) {
    options.onProgress({ type: 'stopped', reason: failedOut, remaining: rest.length });
    for (const index of notStarted) results[index] = notRun(plan.selected[index]!, failedOut);
  }
  const ordered = results.filter((result): result is CheckResult => result !== undefined);
  for (const { check, reason } of plan.skipped) ordered.push(notRun(check, reason));
  return { results: ordered, ...(interrupted ? { interrupted } : {}) };
}

/**
 * First the checks that wait out real time: those tagged slow (a receiver's 10 s limit); then, in a run with the
 * browser customer, those that use the browser, on the main instance or a spare (the run's browser contexts are what a
 * black-box run waits on longest, so they start at once and stay busy), those holding more slots at once first: a
 * browser check never overtakes an earlier one waiting for slots (scheduler.ts), so a wide check queued behind narrow
 * ones would leave slots idle while it waits for them all, and the narrow ones last pair up in the slots left; then the
 * other checks on a clock of their own or a spare instance (their retries and settles are their own waits); they
 * overlap the rest instead of ending the run.
 */
function rankOf(tags: readonly string[], claims: Claims, browserCapacity: number | null): number {
  if (tags.includes('slow')) return 0;
  // Without the browser customer (a control API pays for the checks) nothing waits on a page: list order.
  if (browserCapacity !== null && claims.browserSlots > 0) return 1 + (browserCapacity - claims.browserSlots) / (browserCapacity + 1);
  return claims.ownClock || claims.lane ? 2 : 3;
}
