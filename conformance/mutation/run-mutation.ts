// The whole mutation self-test: the baseline (no fault, every check, strict) and one run per
// fault, in a small pool (the runs are mostly waiting on loopback HTTP; CI has 2 cores).
import { FAULT_DEFINITIONS, type FaultDefinition } from '@stablepay/simulator/faults';
import { CONTROLS, type ProxyControl } from './proxy/controls.ts';
import { PROXY_FAULTS } from './proxy/all-faults.ts';
import type { ProxyFault } from './proxy/response-faults.ts';
import { runFault, type FaultRun } from './run-fault.ts';
import { runProxyCase, type ProxyCase, type ProxyRun } from './run-proxy-case.ts';
import { runPooled } from './worker-pool.ts';

export const DEFAULT_POOL_SIZE = Number(process.env.MUTATION_POOL ?? 4);

export { PROXY_FAULTS };

export interface MutationReport {
  baseline: FaultRun;
  runs: FaultRun[];
  /** Outside-in: one run per proxy fault, then one per negative control. */
  proxyRuns: ProxyRun[];
  controlRuns: ProxyRun[];
  /** Faults (in-process and proxy) whose run failed at least one check (documented: at their level; assumed: under strict). */
  caught: number;
  injected: number;
  wallMs: number;
  poolSize: number;
}

export function isCaught(run: FaultRun | ProxyRun): boolean {
  return run.caughtBy.length > 0;
}

/** A control passes when no check failed, warned or went unexercised (under --strict). */
export function controlPassed(run: ProxyRun): boolean {
  return run.caughtBy.length === 0 && run.warnedBy.length === 0 && run.notExercised.length === 0;
}

export async function runMutation(
  faults: readonly FaultDefinition[] = FAULT_DEFINITIONS,
  poolSize = DEFAULT_POOL_SIZE,
  proxyFaults: readonly ProxyFault[] = PROXY_FAULTS,
  controls: readonly ProxyControl[] = CONTROLS,
): Promise<MutationReport> {
  const started = performance.now();
  // Longest runs first (the baseline and slow faults include the 11 s slow-receiver check), so the
  // pool does not end waiting on one of them; the report keeps catalogue order.
  // Controls run the widest selections, so they start first too.
  type Job = { inProcess: FaultDefinition | null } | { proxy: ProxyCase };
  const jobs: Job[] = [
    { inProcess: null },
    ...controls.map((control) => ({ proxy: { kind: 'control', control } as ProxyCase })),
    ...faults.filter((f) => f.slow === true).map((f) => ({ inProcess: f })),
    ...proxyFaults.map((fault) => ({ proxy: { kind: 'fault', fault } as ProxyCase })),
    ...faults.filter((f) => f.slow !== true).map((f) => ({ inProcess: f })),
  ];
  const results = await runPooled<Job, FaultRun | ProxyRun>(jobs, poolSize, (job) =>
    'proxy' in job ? runProxyCase(job.proxy) : runFault(job.inProcess),
  );
  const inProcess = results.filter((r): r is FaultRun => 'fault' in r);
  const outside = results.filter((r): r is ProxyRun => 'case' in r);
  const baseline = inProcess.find((r) => r.fault === null)!;
  const runs = faults.map((fault) => inProcess.find((r) => r.fault === fault)!);
  const proxyRuns = proxyFaults.map((f) => outside.find((r) => r.case.kind === 'fault' && r.case.fault === f)!);
  const controlRuns = controls.map((c) => outside.find((r) => r.case.kind === 'control' && r.case.control === c)!);
  return {
    baseline,
    runs,
    proxyRuns,
    controlRuns,
    caught: runs.filter(isCaught).length + proxyRuns.filter(isCaught).length,
    injected: runs.length + proxyRuns.length,
    wallMs: Math.round(performance.now() - started),
    poolSize,
  };
}
