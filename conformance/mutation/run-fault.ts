// One mutation run: an in-process simulator with one fault injected (or none, the baseline) on a
// free port, the conformance suite against it with its webhook receiver on, restricted to the
// checks that cite the fault's broken requirements. Assumed faults run under --strict, since
// only there do assumed findings fail (DESIGN §2).
import { startServer } from '@stablepay/simulator/server';
import type { FaultDefinition } from '@stablepay/simulator/faults';
import { ALL_CHECKS, runConformance } from '../index.ts';
import { quietLogger } from '../test-support/simulator.ts';
import type { CheckResult, Counts } from '../types.ts';
import { BROWSER_TAG, targetChecks } from './target-checks.ts';

export interface FaultRun {
  /** null for the baseline run (no fault). */
  fault: FaultDefinition | null;
  strict: boolean;
  /** Checks citing a broken requirement (empty for the baseline). */
  citing: string[];
  /** Checks executed. */
  ran: string[];
  /** Checks whose result is `fail`, with the requirements their failures name. */
  caughtBy: { id: string; requirements: string[] }[];
  /** Checks that only warned (assumed findings outside --strict). */
  warnedBy: string[];
  counts: Counts;
  durationMs: number;
}

export const MUTATION_SEED = Number(process.env.MUTATION_SEED ?? 20_260_101);

export async function runFault(fault: FaultDefinition | null, seed = MUTATION_SEED): Promise<FaultRun> {
  const started = performance.now();
  const server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, faults: fault ? [fault.name] : [] });
  try {
    const targets = fault ? targetChecks(fault, ALL_CHECKS) : { citing: [], only: [] };
    if (fault && targets.only.length === 0) {
      return {
        fault,
        strict: false,
        citing: [],
        ran: [],
        caughtBy: [],
        warnedBy: [],
        counts: { passed: 0, failed: 0, warned: 0, notExercised: 0, skipped: 0, errors: 0 },
        durationMs: 0,
      };
    }
    const strict = fault === null || fault.level === 'assumed';
    const { result } = await runConformance({
      baseUrl: server.url,
      apiKey: server.simulator.defaultApiKey,
      strict,
      only: targets.only,
      // The in-process simulator is no black-box run: the browser customer's checks cannot run here.
      skip: [BROWSER_TAG],
      seed,
      formats: ['console'],
      progress: false,
      write: () => {},
    });
    const ran = result.checks.filter((c) => c.result !== 'skipped');
    const failing = (c: CheckResult): boolean => c.result === 'fail';
    return {
      fault,
      strict,
      citing: targets.citing.map((c) => c.id),
      ran: ran.map((c) => c.id),
      caughtBy: ran.filter(failing).map((c) => ({ id: c.id, requirements: [...new Set(c.failures.map((f) => f.requirement))] })),
      warnedBy: ran.filter((c) => c.result === 'warn').map((c) => c.id),
      counts: result.summary.counts,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await server.close();
  }
}
