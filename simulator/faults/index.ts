// Deliberately broken variants of the simulator for the mutation self-test: the named faults,
// their wrappers of the core's seams, and the startup banner. Only the composition root (app.ts)
// and the CLI import this folder; the core knows nothing of it.
import type { FaultName } from './fault-definitions.ts';
import { FAULT_WRAPPERS } from './fault-wrappers.ts';
import { seamDecorator, type SeamDecorator } from './seams.ts';

export { FAULT_DEFINITIONS, FAULT_NAMES } from './fault-definitions.ts';
export type { FaultDefinition, FaultLevel, FaultName } from './fault-definitions.ts';
export { parseFaultList, resolveFaults, UnknownFaultError } from './resolve-faults.ts';
export { faultBanner } from './banner.ts';
export { FAULT_WRAPPERS } from './fault-wrappers.ts';
export type { FaultWrappers, SeamDecorator, SeamName, Seams } from './seams.ts';

/** The decorator that puts the named faults' wrappers around each seam of one simulator. */
export function faultySeams(names: readonly FaultName[]): SeamDecorator {
  return seamDecorator(names, (name) => FAULT_WRAPPERS[name]());
}
