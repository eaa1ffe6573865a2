// The vocabulary every part of the suite shares: checks, results, failures and the recorded run.
// Result kinds and the severity rule follow DESIGN §2 (requirement levels and the honesty rule).

import type { RunMetadata } from './run-metadata.ts';
import type { PremiseEvidence, PremiseRecord, PremiseStatus } from './premises/book.ts';
import type { DeliveryEvidence } from './webhooks/evidence.ts';
import type { ExchangeSummary } from './http/evidence.ts';

export type { ExchangeSummary };

export type RequirementLevel = 'documented' | 'assumed';

/** What a check needs from the run; a missing capability makes the check not-exercised. */
/** `customer`: the suite can pay through the hosted page in a browser (black-box run: its own chains and keys). */
export type Capability = 'control' | 'webhook-receiver' | 'customer';

/** `error`: the check itself broke (an exception the suite did not expect); the run could not judge what it cites. */
export type ResultKind = 'pass' | 'fail' | 'warn' | 'not-exercised' | 'skipped' | 'error';

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
  /**
   * `<checkId>/<property>`: with `path`, what `stablepay conformance --replay <property>=<path>` (and `stablepay
   * replay`) takes. The property's seed is not recorded: it is derived from the run's one seed and this name.
   */
  property: string;
  /** fast-check replay path of the shrunk counterexample. */
  path: string;
  numRuns: number;
  counterexample: string;
}

/** A secret a reproduction cannot run without, and where the person running it finds it. */
export interface SecretNeed {
  variable: string;
  where: string;
}

/**
 * How a failed or warned check is reproduced against the implementation (DESIGN §2: "a curl command that reproduces
 * it"): `stablepay replay <report> --check <id>` remakes what the check needs with the person's own credentials and
 * repeats its requests. `command` is null when no replay can run against a running service; `why` then says so.
 */
export interface ReplayRecipe {
  command: string | null;
  needs: SecretNeed[];
  /** Why there is no command. */
  why?: string;
  /** What else the command needs (a JSON report to read, a running implementation). */
  note?: string;
}

export interface Failure {
  checkId: string;
  requirement: string;
  severity: Severity;
  title: string;
  message: string;
  /** curl command reproducing the offending call, secrets replaced by variables. */
  reproduction: string | null;
  /** The offending call as sent and answered; `stablepay replay` prints the same for the call it repeats. */
  exchange?: ExchangeSummary;
  fastCheck?: FastCheckDetails;
  /** How many identical findings were folded into this one (cross-cutting checks). */
  occurrences?: number;
  /** A webhook finding's delivery as received (headers, raw body in base64, expected and actual signature, replay command). */
  delivery?: DeliveryEvidence;
  /** The premises this finding rests on that the run could not establish: it is at most a warning (DESIGN §2). */
  unconfirmedPremises?: { id: string; title: string; status: PremiseStatus; evidence: PremiseEvidence[] }[];
}

/** What broke inside a check whose result is `error`. The stack goes to the JSON report only. */
export interface CheckError {
  message: string;
  stack?: string;
}

export interface CheckResult extends CheckMeta {
  result: ResultKind;
  /** Why a check was skipped or not exercised. */
  reason?: string;
  /** Set when result is `error`. */
  error?: CheckError;
  failures: Failure[];
  durationMs: number;
  /** Generated test cases (property runs, enumerated inputs, model sequences). */
  cases: number;
  /** HTTP calls the check made against the implementation (service and control API). */
  requests: number;
  seed?: number;
  /** The cited requirements the check actually judged in this run; the others are not exercised by it. */
  judged: string[];
  /** Set on failed and warned checks: how to reproduce them (`stablepay replay`). */
  replay?: ReplayRecipe;
}

export interface Counts {
  passed: number;
  failed: number;
  warned: number;
  notExercised: number;
  skipped: number;
  /** Checks whose result is `error`: any makes the run exit 2 (the suite could not judge). */
  errors: number;
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

/** The limits every request and the run had (stated in every report). */
export interface RunLimits {
  requestTimeoutMs: number;
  maxResponseBytes: number;
  /** null: no run-level deadline. */
  maxRunTimeMs: number | null;
}

/** A run that did not get to the end of its plan: a signal, or its --max-run-time. */
export interface RunInterruption {
  by: 'SIGINT' | 'SIGTERM' | 'max-run-time';
  /** One sentence: what stopped the run and when. */
  message: string;
  /** Checks of the plan that never started (reported as skipped with the reason). */
  notRun: string[];
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
  limits: RunLimits;
  /** Present only when the run was interrupted. */
  interrupted?: RunInterruption;
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
  /** The gate the run was given (--require-coverage, --require) and whether it held; absent when none was given. */
  gate?: GateResult;
}

/** The gate a CI job set on the run (--require-coverage, --require) and whether it held. */
export interface GateResult {
  /** True when nothing was required or every requirement of the gate holds. */
  met: boolean;
  /** One sentence per unmet condition. */
  unmet: string[];
  requireCoverage: number | null;
  /** Documented requirements exercised, in percent of all documented ones. */
  documentedExercised: number;
  required: { selector: string; checks: { id: string; result: ResultKind }[] }[];
}
