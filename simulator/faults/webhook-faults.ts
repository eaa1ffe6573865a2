// Faults of webhook delivery: wrappers of the signed request of an attempt and of the retry
// scheduler. Each bends one rule of spec §6 so a merchant-side check can be shown to catch it;
// the factories take their amount so unit tests can pick one.
import { createHmac } from 'node:crypto';
import type { BuildAttemptRequest, RetryScheduler, WrapSend } from '../core/webhooks/index.ts';
import { formatSignatureHeader, signPayload } from '../core/webhooks/index.ts';

const SIGNATURE = 'X-Service-Signature';
const TIMESTAMP = 'X-Service-Timestamp';

/** `signature-over-body-only`: v1 is the HMAC of the raw body alone, without "<t>.". */
export const signedBodyOnly =
  (base: BuildAttemptRequest): BuildAttemptRequest =>
  (input) => {
    const request = base(input);
    const signature = createHmac('sha256', input.secret).update(request.body, 'utf8').digest('hex');
    return { ...request, headers: { ...request.headers, [SIGNATURE]: formatSignatureHeader(request.headers[TIMESTAMP] ?? '', signature) } };
  };

/** `signature-header-without-timestamp`: X-Service-Signature is `v1=<hex>` with no t= part. */
export const signatureWithoutTimestamp =
  (base: BuildAttemptRequest): BuildAttemptRequest =>
  (input) => {
    const request = base(input);
    const v1 = (request.headers[SIGNATURE] ?? '').split(',').find((part) => part.startsWith('v1=')) ?? '';
    return { ...request, headers: { ...request.headers, [SIGNATURE]: v1 } };
  };

/** `timestamp-in-ms`: the timestamp (header and signed) is Unix milliseconds. */
export const timestampInMs =
  (base: BuildAttemptRequest): BuildAttemptRequest =>
  (input) => {
    const request = base(input);
    const timestamp = input.signedAtMs;
    const signature = signPayload(input.secret, timestamp, request.body);
    return {
      ...request,
      headers: { ...request.headers, [TIMESTAMP]: String(timestamp), [SIGNATURE]: formatSignatureHeader(timestamp, signature) },
    };
  };

/** `timestamp-stale` (-400 s): the signed timestamp comes from a clock `seconds` off. */
export const timestampSkew =
  (seconds: number) =>
  (base: BuildAttemptRequest): BuildAttemptRequest =>
  (input) =>
    base({ ...input, signedAtMs: input.signedAtMs + seconds * 1000 });

/** `signature-wrong-key`: deliveries are signed with a key other than the endpoint secret. */
export const wrongKey =
  (base: BuildAttemptRequest): BuildAttemptRequest =>
  (input) =>
    base({ ...input, secret: `${input.secret}-wrong` });

/** `webhook-body-changes-on-retry`: the payload is re-serialised with the retry's time. */
export const bodyRestampedOnRetry =
  (base: BuildAttemptRequest): BuildAttemptRequest =>
  (input) => {
    if (input.attempt === 1) return base(input);
    const payload = JSON.parse(input.rawBody) as { timestamp: string };
    payload.timestamp = new Date(input.instantMs).toISOString();
    return base({ ...input, rawBody: JSON.stringify(payload) });
  };

/** `retry-schedule-shifted` (+30 s): every retry delay is `shiftMs` longer. */
export const retryShift =
  (shiftMs: number) =>
  (base: RetryScheduler): RetryScheduler =>
  (scheduledAt, attempt) => {
    const next = base(scheduledAt, attempt);
    return next && { ...next, dueAt: next.dueAt + shiftMs };
  };

/** `retry-attempt-missing` (attempt 4): these attempts are neither sent nor recorded; the schedule moves on. */
export const missingAttempts =
  (numbers: readonly number[]) =>
  (base: RetryScheduler): RetryScheduler =>
  (scheduledAt, attempt) => {
    let next = base(scheduledAt, attempt);
    while (next && numbers.includes(next.number)) next = base(next.dueAt, next.number);
    return next;
  };

/** `retries-after-success`: an attempt the receiver answered with a 2xx is recorded as failed, so its retries go on. */
export function successCountedAsFailure(base: WrapSend): WrapSend {
  return (send, closing) => {
    const inner = base(send, closing);
    return async (record, number, instantMs) => {
      const outcome = await inner(record, number, instantMs);
      if (outcome.abandoned || outcome.error !== null) return outcome;
      return { ...outcome, error: `HTTP ${outcome.statusCode} (a 2xx) counted as a failure` };
    };
  };
}
