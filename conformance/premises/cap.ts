// DESIGN §2 "Premises", enforced by the runner rather than by each check: a finding that rests on a premise the run
// could not establish (the simulator's choice unconfirmed, or refuted) judges nothing the spec states, so it is at
// most a warning, and it says which premise, what was sent and what was seen. A finding rests on every premise its
// check consulted unless it names exactly the ones it depends on (context.ts FindingOptions), so a check written
// later cannot bring such a failure back by forgetting to say so.
import type { RequirementLevel } from '@stablepay/contract/catalogue';
import type { PremiseBook, PremiseEvidence, PremiseStatus } from './book.ts';
import { PREMISES, type PremiseId } from './definitions.ts';

export interface UnconfirmedPremise {
  id: PremiseId;
  title: string;
  status: PremiseStatus;
  evidence: PremiseEvidence[];
}

export interface CappedLevel {
  level: RequirementLevel;
  /** The premises the finding rests on that the run could not establish (empty: nothing to cap). */
  unconfirmed: UnconfirmedPremise[];
  /** Appended to the finding's message when a premise is unconfirmed. */
  note: string;
}

/** The level a finding may carry given the premises it rests on. */
export function capByPremises(level: RequirementLevel, dependsOn: Iterable<PremiseId>, book: PremiseBook): CappedLevel {
  const unconfirmed: UnconfirmedPremise[] = [];
  for (const id of new Set(dependsOn)) {
    if (book.isEstablished(id)) continue;
    const state = book.state(id);
    unconfirmed.push({ id, title: PREMISES[id].title, status: state?.status ?? 'assumed', evidence: state?.evidence ?? [] });
  }
  if (unconfirmed.length === 0) return { level, unconfirmed, note: '' };
  const lines = unconfirmed.map((premise) => {
    const last = premise.evidence.at(-1);
    const shown = last ? `; sent ${last.sent}; saw ${last.seen}` : '';
    return `- premise ${premise.id} (${premise.title}): ${premise.status === 'refuted' ? 'refuted' : "only the simulator's choice, not confirmed on this implementation"}${shown}`;
  });
  const why = level === 'documented' ? 'Not a documented failure: it rests on' : 'It rests on';
  return {
    level: 'assumed',
    unconfirmed,
    note: `\n${why} ${unconfirmed.length === 1 ? 'a premise' : 'premises'} the run could not establish (declare ${unconfirmed.length === 1 ? 'it' : 'them'} in the implementation profile, docs/implementers.md):\n${lines.join('\n')}`,
  };
}
