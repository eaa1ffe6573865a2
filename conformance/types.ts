// The vocabulary every part of the suite shares: checks, results, failures and the recorded run.
// Result kinds and the severity rule follow DESIGN §2 (requirement levels and the honesty rule).

import type { RunMetadata } from './integrity/run-metadata.ts';
import type { PremiseEvidence, PremiseRecord, PremiseStatus } from './premises/book.ts';
import type { DeliveryEvidence } from './webhooks/evidence.ts';

export type RequirementLevel = 'documented' | 'assumed';

/** What a check needs from the run; a missing capability makes the check not-exercised. */
/** `customer`: the suite can pay through the hosted page in a browser (black-box run: its own chains and keys). */
export type Capability = 'control' | 'webhook-receiver' | 'customer';

export type ResultKind = 'pass' | 'fail' | 'warn' | 'not-exercised' | 'skipped';

/** `fail` breaks conformance; `warn` is a failure of an assumed requirement outside --strict. */
export type Severity = 'fail' | 'warn';

export interface CheckMeta {
  /** Stable dotted id, `<area>.<concept>` (e.g. `auth.revoked-key`). */
  id: string;
  title: string;
  /** Catalogue requirement IDs this check exercises. */
  requirements: string[];
  /** `documented` if any cited requirement is documented; otherwise `assumed`. */
  level: RequirementLevel;
  needs: Capability[];
  tags: string[];
  /** Assumed premises (conformance/premises/definitions.ts) the check may rely on; the runner caps what rests on them. */
  premises: string[];
}

export interface FastCheckDetails {
  /** Seed used for this check's property (derived from the run seed and the check id). */
  seed: number;
  /** fast-check replay path of the shrunk counterexample. */
  path: string;
  numRuns: number;
  counterexample: string;
  /** Command line that replays exactly this counterexample. */
  replay: string;
}

export interface Failure {
  checkId: string;
  requirement: string;
  severity: Severity;
  title: string;
  message: string;
  /** curl command reproducing the offending call, secrets replaced by variables. */
  reproduction: string | null;
  fastCheck?: FastCheckDetails;
  /** How many identical findings were folded into this one (cross-cutting checks). */
  occurrences?: number;
  /** A webhook finding's delivery as received (headers, raw body in base64, expected and actual signature, replay command). */
  delivery?: DeliveryEvidence;
  /** The premises this finding rests on that the run could not establish: it is at most a warning (DESIGN §2). */
  unconfirmedPremises?: { id: string; title: string; status: PremiseStatus; evidence: PremiseEvidence[] }[];
}

export interface CheckResult extends CheckMeta {
  result: ResultKind;
  /** Why a check was skipped or not exercised. */
  reason?: string;
  failures: Failure[];
  durationMs: number;
  /** Generated test cases (property runs, enumerated inputs, model sequences). */
  cases: number;
  /** HTTP calls the check made against the implementation (service and control API). */
  requests: number;
  seed?: number;
  /** The cited requirements the check actually judged in this run; the others are not exercised by it. */
  judged: string[];
}

export interface Counts {
  passed: number;
  failed: number;
  warned: number;
  notExercised: number;
  skipped: number;
}

export interface CatalogueRequirement {
  id: string;
  section: string;
  statement: string;
  level: RequirementLevel;
  tags: string[];
}

export interface TraceRow {
  requirement: CatalogueRequirement;
  checks: { id: string; result: ResultKind; failed: boolean }[];
  /** Aggregate for the requirement: worst exercised result, or `not-covered`. */
  result: ResultKind | 'not-covered';
}

export interface CoverageSummary {
  level: RequirementLevel;
  total: number;
  /** Requirements cited by at least one check of the suite. */
  covered: number;
  /** Requirements with at least one check that ran (pass/fail/warn) in this run. */
  exercised: number;
}

export interface RunSummary {
  tool: { name: string; version: string };
  baseUrl: string;
  controlUrl: string | null;
  capabilities: Record<Capability, boolean>;
  capabilityNotes: string[];
  strict: boolean;
  seed: number;
  runs: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  counts: Counts;
  cases: number;
  requests: number;
  casesPerSecond: number;
}

export interface RunResult {
  summary: RunSummary;
  checks: CheckResult[];
  failures: Failure[];
  traceability: TraceRow[];
  coverage: CoverageSummary[];
  /** What the run was judged against and what it tested (tool, contract and catalogue digests, seed, target, times). */
  metadata: RunMetadata;
  /** Every premise the run relied on or the profile declared, and how it was established. */
  premises: PremiseRecord[];
}
