// The fault switches of one simulator instance: a frozen record of booleans, all false unless a
// fault was named at startup. Modules read `faults['<name>']` at the exact place of the bug.
import { FAULT_NAMES, type FaultName } from './catalogue.ts';

export type ActiveFaults = Readonly<Record<FaultName, boolean>>;

function record(on: ReadonlySet<string>): ActiveFaults {
  return Object.freeze(Object.fromEntries(FAULT_NAMES.map((name) => [name, on.has(name)])) as Record<FaultName, boolean>);
}

/** No fault: the default of every module that reads faults. */
export const NO_FAULTS: ActiveFaults = record(new Set());

export class UnknownFaultError extends Error {
  constructor(readonly unknown: string[]) {
    super(`unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known faults: ${FAULT_NAMES.join(', ')}`);
    this.name = 'UnknownFaultError';
  }
}

/** Resolve fault names (duplicates and surrounding blanks tolerated); unknown names throw. */
export function resolveFaults(names: readonly string[] = []): ActiveFaults {
  const wanted = names.map((n) => n.trim()).filter((n) => n !== '');
  if (wanted.length === 0) return NO_FAULTS;
  const unknown = wanted.filter((n) => !(FAULT_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new UnknownFaultError([...new Set(unknown)]);
  return record(new Set(wanted));
}

/** The names switched on, in catalogue order. */
export function enabledFaults(faults: ActiveFaults): FaultName[] {
  return FAULT_NAMES.filter((name) => faults[name]);
}

/** `STABLEPAY_INJECT_FAULTS=a,b` (comma or whitespace separated). */
export function parseFaultList(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((n) => n !== '');
}
