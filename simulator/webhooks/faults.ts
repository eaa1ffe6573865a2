// Named deviations from spec §6 that the simulator can be told to commit, so the conformance
// suite can prove each of its webhook checks fails against a faulty service. All default off;
// each is one field of this object, read at the moment of every attempt (so a control endpoint
// may flip them at run time).

export interface WebhookFaults {
  /** X-Service-Signature is `v1=<hex>` with no `t=` (verification step 1 must reject it). */
  signatureWithoutTimestamp: boolean;
  /** X-Service-Timestamp and `t=` in milliseconds instead of seconds (and signed as such). */
  timestampInMs: boolean;
  /** Seconds added to the signed timestamp (e.g. -301 makes every signature stale). */
  timestampSkewSeconds: number;
  /** HMAC over the raw body alone, without `<timestamp>.` (verification step 3 must reject). */
  signedBodyOnly: boolean;
  /** HMAC computed with a key other than the endpoint secret (verification step 3 must reject). */
  wrongSignature: boolean;
  /** Milliseconds added to every retry delay (the schedule is no longer 1m, 5m, 30m, ...). */
  retryShiftMs: number;
  /** Attempt numbers that are neither sent nor recorded; the schedule moves on as if they failed. */
  missingAttempts: number[];
  /** Payload re-serialised per attempt with the attempt's time (breaks "identical body"). */
  bodyChangesOnRetry: boolean;
}

export type WebhookFaultName = keyof WebhookFaults;

export function defaultFaults(): WebhookFaults {
  return {
    signatureWithoutTimestamp: false,
    timestampInMs: false,
    timestampSkewSeconds: 0,
    signedBodyOnly: false,
    wrongSignature: false,
    retryShiftMs: 0,
    missingAttempts: [],
    bodyChangesOnRetry: false,
  };
}
