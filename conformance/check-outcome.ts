// What a check's ending means (DESIGN §2 and the rule that the suite's own failures are never verdicts): a
// RequirementError is a finding on the requirement it names; a request that got no usable answer from the service is
// a finding on the check's first requirement, saying why; a control-API call that did not answer or a missing
// capability is not-exercised; a request aborted because the run stopped says nothing; anything else is the check
// itself breaking, an `error` result, never a finding.
import type { Check } from './check.ts';
import type { Finding, RunServices } from './context.ts';
import { NotExercisedSignal, RequirementError } from './errors.ts';
import { TransportError } from './http/client.ts';
import { transportTitle } from './http/transport-title.ts';
import { evidenceOf } from './http/evidence.ts';
import type { CheckError } from './types.ts';

export type CheckEnding =
  | { kind: 'finished' }
  | { kind: 'finding'; finding: Finding }
  | { kind: 'not-exercised'; reason: string }
  /** Its requests were aborted because the run was stopping: what it found before stands, nothing more. */
  | { kind: 'aborted' }
  | { kind: 'error'; error: CheckError };

export function checkErrorOf(error: unknown): CheckError {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, ...(error.stack ? { stack: error.stack } : {}) };
  return { message: `thrown: ${String(error)}` };
}

export function endingOf(error: unknown, check: Pick<Check, 'requirements'>, services: Pick<RunServices, 'secrets'>): CheckEnding {
  if (error instanceof NotExercisedSignal) return { kind: 'not-exercised', reason: error.reason };
  if (error instanceof RequirementError) {
    return {
      kind: 'finding',
      finding: {
        requirement: error.requirement,
        title: error.title,
        message: error.message,
        ...evidenceOf(error.exchange, services.secrets),
        ...(error.premises ? { premises: error.premises } : {}),
      },
    };
  }
  if (error instanceof TransportError) {
    if (error.kind === 'aborted') return { kind: 'aborted' };
    // The control API is the suite's scaffolding: when it does not answer, the checks that need it cannot judge.
    if (error.exchange.target === 'control') return { kind: 'not-exercised', reason: `the control API did not answer: ${error.message}` };
    return {
      kind: 'finding',
      finding: {
        requirement: check.requirements[0]!,
        title: transportTitle(error.kind),
        message: error.message,
        ...evidenceOf(error.exchange, services.secrets),
      },
    };
  }
  return { kind: 'error', error: checkErrorOf(error) };
}
