// One delivery attempt can reach a receiver more than once (the spec: "duplicate deliveries can
// occur"). An attempt is identified by its exact body and its signed timestamp `t`: copies of one
// attempt are one attempt, never extra retries.
import type { Delivery } from './receiver.ts';
import { parseSignatureHeader } from './signature.ts';

export function attemptKey(delivery: Delivery): string {
  const parsed = parseSignatureHeader(String(delivery.headers['x-service-signature'] ?? ''));
  const t = parsed?.t ?? String(delivery.headers['x-service-timestamp'] ?? '');
  return `${t}\n${delivery.rawBody}`;
}

/** The deliveries with later copies of the same attempt removed, in arrival order. */
export function distinctAttempts(deliveries: readonly Delivery[]): Delivery[] {
  const seen = new Set<string>();
  return deliveries.filter((d) => {
    const key = attemptKey(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
