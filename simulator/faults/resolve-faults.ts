// Fault names as given at startup (--inject-fault, STABLEPAY_INJECT_FAULTS, the faults option),
// checked against the definitions: unknown names are refused before anything starts.
import { FAULT_NAMES, type FaultName } from './fault-definitions.ts';

export class UnknownFaultError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known faults: ${FAULT_NAMES.join(', ')}`,
    );
    this.name = 'UnknownFaultError';
  }
}

/** The named faults in definition order (duplicates and surrounding blanks tolerated); unknown names throw. */
export function resolveFaults(names: readonly string[] = []): FaultName[] {
  const wanted = new Set(names.map((n) => n.trim()).filter((n) => n !== ''));
  const unknown = [...wanted].filter((n) => !(FAULT_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new UnknownFaultError(unknown);
  return FAULT_NAMES.filter((name) => wanted.has(name));
}

/** `STABLEPAY_INJECT_FAULTS=a,b` (comma or whitespace separated). */
export function parseFaultList(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((n) => n !== '');
}
