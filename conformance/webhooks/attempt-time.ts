// When an attempt happened, on the implementation's clock. The signed X-Service-Timestamp is the
// signer's wall time (a receiver checks it against its own clock), so on an implementation with a
// virtual clock it cannot time a retry schedule that the suite moved through hours in seconds.
// The simulator carries the attempt's virtual instant in X-Simulator-Attempt-Timestamp; an
// implementation without it (or whose clock the suite moves from outside) is timed by
// X-Service-Timestamp, as before.
import type { Delivery } from './receiver.ts';

export const ATTEMPT_TIME_HEADER = 'x-simulator-attempt-timestamp';

/** Unix seconds of the attempt on the implementation's clock (NaN when neither header is there). */
export function attemptSeconds(delivery: Delivery): number {
  const header = delivery.headers[ATTEMPT_TIME_HEADER] ?? delivery.headers['x-service-timestamp'];
  return Number(Array.isArray(header) ? header[0] : header);
}
