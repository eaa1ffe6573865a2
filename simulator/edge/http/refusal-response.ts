// The one mapper from the domain's refusals to HTTP: the status of each kind and the spec's error
// body (statusCode, message, error, and errors[] for a validation failure).
import { type DomainRefusal, type RefusalKind, Invalid } from '../../core/refusals/refusals.ts';
import { ApiError } from './errors.ts';

const STATUS: Record<RefusalKind, number> = {
  'not-found': 404,
  conflict: 409,
  'invalid-state': 409,
  invalid: 400,
  unauthenticated: 401,
};

/** The HTTP status a refusal of `kind` is answered with. */
export const refusalStatus = (kind: RefusalKind): number => STATUS[kind];

export function refusalToApiError(refusal: DomainRefusal): ApiError {
  const errors = refusal instanceof Invalid && refusal.problems ? [...refusal.problems] : undefined;
  return new ApiError(STATUS[refusal.kind], refusal.message, errors ? { errors } : {});
}
