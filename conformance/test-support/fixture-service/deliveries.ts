// Webhook deliveries as spec §6 describes them: a POST with a minimal JSON body, X-Service-Timestamp and
// X-Service-Signature (HMAC-SHA256 of `<t>.<raw body>` with the endpoint's secret), success on any 2xx within 10 s,
// 7 attempts at +0, 1 m, 6 m, 36 m, 2 h 36 m, 10 h 36 m, 34 h 36 m. Attempts are due times, not timers: a sweep fires
// whatever fell due, so the fixture follows any clock (the control API's offset or libfaketime's jumps). Only the
// documented headers are sent (besides what HTTP itself needs), unless `attemptTimeHeader` adds the attempt's instant
// on a clock the control API moved (the simulator's X-Simulator-Attempt-Timestamp, which the suite times retries by).
import { createHmac, randomUUID } from 'node:crypto';
import type { Delivery, FixtureState } from './state.ts';

/** Delay before attempts 2..7 (spec §6 table). */
const DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000, 86_400_000];
const TIMEOUT_MS = 10_000;

export function sign(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** Records the event for the merchant's endpoint (if enabled) and fires its first attempt. */
export function emit(
  state: FixtureState,
  merchantId: string,
  event: string,
  data: Record<string, unknown> | null,
  subject: { paymentId?: string; payoutId?: string } = {},
): Delivery | null {
  if (event === 'payment.cancelled' && state.has('cancelled-event-dropped')) return null;
  const endpoint = state.endpoints.get(merchantId);
  if (!endpoint?.enabled) return null;
  const now = state.now();
  const body = JSON.stringify(
    data === null ? { event, timestamp: new Date(now).toISOString() } : { event, timestamp: new Date(now).toISOString(), data },
  );
  const delivery: Delivery = {
    id: randomUUID(),
    merchantId,
    event,
    paymentId: subject.paymentId ?? null,
    payoutId: subject.payoutId ?? null,
    url: endpoint.url,
    body,
    status: 'pending',
    attempts: [],
    nextAttemptAt: now,
    createdAt: now,
    seq: state.next(),
  };
  state.deliveries.push(delivery);
  fireDue(state);
  return delivery;
}

/** Starts every attempt that is due by the fixture's clock; each is stamped with its start (at most its due time late). */
export function fireDue(state: FixtureState, until = state.now()): number {
  let fired = 0;
  for (const delivery of state.deliveries) {
    if (delivery.status !== 'pending' || delivery.nextAttemptAt === null || delivery.nextAttemptAt > until) continue;
    const scheduled = delivery.nextAttemptAt;
    delivery.nextAttemptAt = null;
    fired += 1;
    void attempt(state, delivery, Math.max(scheduled, Math.min(until, state.now())), scheduled);
  }
  return fired;
}

async function attempt(state: FixtureState, delivery: Delivery, stamp: number, scheduled: number): Promise<void> {
  const endpoint = state.endpoints.get(delivery.merchantId);
  const secret = state.has('signature-wrong-key') ? 'not-the-endpoint-secret' : (endpoint?.secret ?? '');
  // The signed timestamp is the process's wall time, which a receiver checks against its own clock. A clock moved
  // by the control API is not the receiver's: then the attempt's own instant travels in a header of ours.
  const t = Math.floor(Date.now() / 1000);
  const claimed = delivery.claimedAt ?? stamp;
  const ours: Record<string, string> = state.attemptTimeHeader
    ? { 'x-simulator-attempt-timestamp': String(Math.floor(claimed / 1000)) }
    : {};
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const response = await fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': String(t),
        'x-service-signature': `t=${t},v1=${sign(secret, t, delivery.body)}`,
        ...ours,
      },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    statusCode = response.status;
    await response.arrayBuffer().catch(() => undefined);
    if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
  } catch (cause) {
    error = (cause as Error).name === 'TimeoutError' ? `timeout after ${TIMEOUT_MS} ms` : String((cause as Error).message);
  }
  const number = delivery.attempts.length + 1;
  delivery.attempts.push({ number, attemptedAt: stamp, statusCode, durationMs: Date.now() - started, error });
  if (error === null) {
    delivery.status = 'succeeded';
    return;
  }
  const delay = DELAYS_MS[number - 1];
  if (delay === undefined) {
    delivery.status = 'failed';
    return;
  }
  // Each retry counts from the previous attempt's due time.
  delivery.nextAttemptAt = scheduled + delay + (state.has('retry-schedule-shifted') ? 30_000 : 0);
  if (state.has('retry-late-header-on-time')) {
    delivery.claimedAt = delivery.nextAttemptAt;
    delivery.nextAttemptAt += 60_000;
  }
}

export function deliveryRecord(delivery: Delivery): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: delivery.id,
    event: delivery.event,
    paymentId: delivery.paymentId,
    payoutId: delivery.payoutId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts.map((a) => ({
      number: a.number,
      attemptedAt: iso(a.attemptedAt),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
    })),
    nextAttemptAt: iso(delivery.nextAttemptAt),
    payload: JSON.parse(delivery.body),
    createdAt: iso(delivery.createdAt),
    updatedAt: iso(delivery.attempts.at(-1)?.attemptedAt ?? delivery.createdAt),
  };
}
