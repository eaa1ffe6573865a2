// Which checks a fault run executes, derived from the fault's `breaks` requirement IDs: every check
// that cites one of them. No hand-picked list, so a fault whose requirements no check cites shows
// up as a gap (no target) instead of hiding behind a favourable selection.
import type { FaultDefinition } from '@stablepay/simulator/faults';
import type { Check } from '../check.ts';

export const SLOW_TAG = 'slow';
/** Checks that pay through the hosted page in a browser: they need a black-box run (the suite's own chains). */
export const BROWSER_TAG = 'browser';
export const CROSS_CUTTING_TAG = 'cross-cutting';
/** Run-level checks over every payment's history (checks/history/): they cite many requirements other checks judge too. */
export const HISTORY_TAG = 'run-history';

export interface TargetSelection {
  /** Checks citing a broken requirement. */
  citing: Check[];
  /** Check ids to pass to runConformance({ only }). */
  only: string[];
}

export function targetChecks(
  fault: Pick<FaultDefinition, 'breaks' | 'slow'> & { wholeRun?: boolean },
  checks: readonly Check[],
  blackBox = false,
): TargetSelection {
  const runnable = checks.filter((c) => (fault.slow === true || !c.tags.includes(SLOW_TAG)) && (blackBox || !c.tags.includes(BROWSER_TAG)));
  const citing = runnable.filter((c) => c.requirements.some((r) => fault.breaks.includes(r)));
  // A cross-cutting check judges what the other checks recorded: it needs them to run too. The history checks judge
  // what the citing checks read as well, so they alone do not widen a run, unless the fault asks for the whole run
  // (it hides where only other checks' payments show it).
  const needsTraffic = fault.wholeRun === true || citing.some((c) => c.tags.includes(CROSS_CUTTING_TAG) && !c.tags.includes(HISTORY_TAG));
  const selected = needsTraffic ? runnable : citing;
  return { citing, only: selected.map((c) => c.id) };
}
