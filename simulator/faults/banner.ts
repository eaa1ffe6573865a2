// The startup warning printed whenever a fault is on, so a deliberately broken simulator can never
// be mistaken for the reference one.
import { FAULT_DEFINITIONS, type FaultName } from './fault-definitions.ts';

export function faultBanner(names: readonly FaultName[]): string {
  const rule = '!'.repeat(78);
  const lines = names.map((name) => {
    const def = FAULT_DEFINITIONS.find((f) => f.name === name);
    return `!!   ${name}${def ? ` — ${def.description}` : ''}`;
  });
  return [
    rule,
    `!! FAULTS INJECTED — this simulator is deliberately broken: ${names.join(', ')}`,
    ...lines,
    '!! Do not use it as a reference implementation. Restart without --inject-fault / STABLEPAY_INJECT_FAULTS.',
    rule,
  ].join('\n');
}
