// One delivery attempt can reach a receiver more than once (the spec: "duplicate deliveries can
// occur"). An attempt is identified by its exact body and its signed timestamp `t`: copies of one
// attempt are one attempt, never extra retries. A signer that signs with its wall time can sign two attempts in the
// same second (the simulator moves through hours of retries in seconds), so the attempt's own instant, when the
// implementation sends one, is part of the key.
import { ATTEMPT_TIME_HEADER } from './attempt-time.ts';
import type { Delivery } from './receiver.ts';
import { parseSignatureHeader } from './signature.ts';

export function attemptKey(delivery: Delivery): string {
  const parsed = parseSignatureHeader(String(delivery.headers['x-service-signature'] ?? ''));
  const t = parsed?.t ?? String(delivery.headers['x-service-timestamp'] ?? '');
  const at = String(delivery.headers[ATTEMPT_TIME_HEADER] ?? '');
  return `${t}\n${at}\n${delivery.rawBody}`;
}

/**
 * The deliveries with later copies of the same attempt removed, in arrival order. `apart` tells deliveries apart that
 * the key cannot: a retry timed on a virtual clock can carry the same body and wall-clock `t` as the attempt before it
 * (a control API moves hours in a second), but it arrives after the suite moved the clock, a copy does not.
 */
export function distinctAttempts(deliveries: readonly Delivery[], apart: (delivery: Delivery) => string = () => ''): Delivery[] {
  const seen = new Set<string>();
  return deliveries.filter((d) => {
    const key = `${attemptKey(d)}\n${apart(d)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
