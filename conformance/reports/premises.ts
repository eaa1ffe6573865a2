// The premise book as every report shows it: what the run took for each shape the spec does not show, and how it
// knew (discovered with evidence, declared in the profile, the simulator's choice unconfirmed, refuted).
import { describeStatus, type PremiseRecord } from '../premises/book.ts';
import type { RunResult } from '../types.ts';

export interface PremiseRow {
  id: string;
  title: string;
  /** "discovered", "declared in the profile", ... */
  how: string;
  value: string;
  /** The last evidence, "sent … → seen …", or empty. */
  evidence: string;
  profileKey: string;
  status: PremiseRecord['status'];
}

const VALUE_LIMIT = 160;

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT)}…` : text;
}

export function premiseRows(result: Pick<RunResult, 'premises'>): PremiseRow[] {
  return (result.premises ?? []).map((premise) => {
    const last = premise.evidence.at(-1);
    return {
      id: premise.id,
      title: premise.title,
      how: describeStatus(premise.status),
      value: shortJson(premise.value),
      evidence: last ? `sent ${last.sent} → seen ${last.seen}` : '',
      profileKey: premise.profileKey,
      status: premise.status,
    };
  });
}

/** One line: how many premises were established which way. */
export function premiseCounts(result: Pick<RunResult, 'premises'>): string {
  const rows = premiseRows(result);
  const count = (status: PremiseRecord['status']) => rows.filter((row) => row.status === status).length;
  return `premises: ${count('discovered')} discovered, ${count('declared')} declared, ${count('assumed')} the simulator's choice unconfirmed, ${count('refuted')} refuted`;
}
