// The whole mutation self-test: the baseline (no fault, every check, strict) and one run per
// fault, in a small pool (the runs are mostly waiting on loopback HTTP; CI has 2 cores).
import { FAULT_DEFINITIONS, type FaultDefinition } from '../../simulator/faults/index.ts';
import { runFault, type FaultRun } from './run-fault.ts';
import { runPooled } from './worker-pool.ts';

export const DEFAULT_POOL_SIZE = Number(process.env.MUTATION_POOL ?? 4);

export interface MutationReport {
  baseline: FaultRun;
  runs: FaultRun[];
  /** Faults whose run failed at least one check (documented: at their level; assumed: under strict). */
  caught: number;
  injected: number;
  wallMs: number;
  poolSize: number;
}

export function isCaught(run: FaultRun): boolean {
  return run.caughtBy.length > 0;
}

export async function runMutation(faults: readonly FaultDefinition[] = FAULT_DEFINITIONS, poolSize = DEFAULT_POOL_SIZE): Promise<MutationReport> {
  const started = performance.now();
  // Longest runs first (the baseline and slow faults include the 11 s slow-receiver check), so the
  // pool does not end waiting on one of them; the report keeps catalogue order.
  const order = [null, ...faults.filter((f) => f.slow === true), ...faults.filter((f) => f.slow !== true)];
  const results = await runPooled(order, poolSize, (fault) => runFault(fault));
  const baseline = results[0] as FaultRun;
  const runs = faults.map((fault) => results.find((r) => r.fault === fault) as FaultRun);
  return {
    baseline,
    runs,
    caught: runs.filter(isCaught).length,
    injected: runs.length,
    wallMs: Math.round(performance.now() - started),
    poolSize,
  };
}
