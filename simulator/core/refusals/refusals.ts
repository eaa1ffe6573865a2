// What the domain says when it will not do what was asked, with no HTTP in it: services and
// validators throw these, and the one mapper at the HTTP edge (http/refusal-response.ts) turns
// each kind into its status code and the spec's error body.
import type { Refusal } from '../support/lifecycle-table.ts';

/** One invalid field of a request: its JSON path and what is wrong with it. */
export interface FieldProblem {
  path: string[];
  message: string;
}

export type RefusalKind = 'not-found' | 'conflict' | 'invalid-state' | 'invalid' | 'unauthenticated';

export abstract class DomainRefusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The record does not exist for the caller (another merchant's record does not exist for it either). */
export class NotFound extends DomainRefusal {
  constructor(what = 'Payment') {
    super('not-found', `${what} not found`);
  }
}

/** The request clashes with another record (an externalId in use, a limit reached). */
export class Conflict extends DomainRefusal {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** The record's current state does not allow what was asked. */
export class InvalidState extends DomainRefusal {
  constructor(message: string) {
    super('invalid-state', message);
  }
}

/**
 * The caller's credential is not one the domain knows (an unknown or expired checkout token). API
 * keys are checked by the auth middleware at the edge; this is for credentials a service issues.
 */
export class Unauthenticated extends DomainRefusal {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

/** The request itself is wrong: with `problems`, one entry per invalid field. */
export class Invalid extends DomainRefusal {
  constructor(
    message: string,
    readonly problems?: readonly FieldProblem[],
  ) {
    super('invalid', message);
  }
}

/** A request that failed validation, one problem per invalid field. */
export const invalidFields = (problems: readonly FieldProblem[]): Invalid => new Invalid('Validation failed', problems);

/**
 * The one place a refused lifecycle transition gets its kind. An event the record's state does
 * not accept conflicts with that state, except the merchant's own cancel, which the spec lists as
 * a bad request (§7: DELETE of a payment that is not ACTIVE is 400). A refusal of what the event
 * carries (expired, a pair not accepted or not supported) is invalid input.
 */
export function refusedTransition(refusal: Refusal, options: { merchantCancel?: string } = {}): DomainRefusal {
  if (refusal.reason !== 'invalid-state') return new Invalid(refusal.message);
  return options.merchantCancel === undefined ? new InvalidState(refusal.message) : new Invalid(options.merchantCancel);
}
