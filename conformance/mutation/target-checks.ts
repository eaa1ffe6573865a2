// Which checks a fault run executes, derived from the fault's `breaks` requirement IDs: every check
// that cites one of them. No hand-picked list, so a fault whose requirements no check cites shows
// up as a gap (no target) instead of hiding behind a favourable selection.
import type { FaultDefinition } from '@stablepay/simulator/faults';
import type { Check } from '../check.ts';

export const SLOW_TAG = 'slow';
/** Checks that pay through the hosted page in a browser: they need a black-box run (the suite's own chains). */
export const BROWSER_TAG = 'browser';
export const CROSS_CUTTING_TAG = 'cross-cutting';

export interface TargetSelection {
  /** Checks citing a broken requirement. */
  citing: Check[];
  /** Check ids to pass to runConformance({ only }). */
  only: string[];
}

export function targetChecks(fault: Pick<FaultDefinition, 'breaks' | 'slow'>, checks: readonly Check[], blackBox = false): TargetSelection {
  const runnable = checks.filter((c) => (fault.slow === true || !c.tags.includes(SLOW_TAG)) && (blackBox || !c.tags.includes(BROWSER_TAG)));
  const citing = runnable.filter((c) => c.requirements.some((r) => fault.breaks.includes(r)));
  // A cross-cutting check judges what the other checks recorded: it needs them to run too.
  const needsTraffic = citing.some((c) => c.tags.includes(CROSS_CUTTING_TAG));
  const selected = needsTraffic ? runnable : citing;
  return { citing, only: selected.map((c) => c.id) };
}
