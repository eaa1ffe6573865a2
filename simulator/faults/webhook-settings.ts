// The webhook faults are carried out by the webhook service's own switches (webhooks/faults.ts);
// this maps the simulator's fault names onto them.
import type { WebhookFaults } from '../webhooks/index.ts';
import type { ActiveFaults } from './active-faults.ts';

export interface WebhookFaultSettings {
  faults: Partial<WebhookFaults>;
  /** Replaces the 10 s delivery timeout when set. */
  timeoutMs?: number;
}

export const STALE_TIMESTAMP_SECONDS = -400;
export const RETRY_SHIFT_MS = 30_000;
export const SKIPPED_ATTEMPT = 4;
export const SLACK_TIMEOUT_MS = 30_000;

export function webhookFaultSettings(active: ActiveFaults): WebhookFaultSettings {
  const faults: Partial<WebhookFaults> = {};
  if (active['signature-over-body-only']) faults.signedBodyOnly = true;
  if (active['signature-header-without-timestamp']) faults.signatureWithoutTimestamp = true;
  if (active['timestamp-in-ms']) faults.timestampInMs = true;
  if (active['timestamp-stale']) faults.timestampSkewSeconds = STALE_TIMESTAMP_SECONDS;
  if (active['signature-wrong-key']) faults.wrongSignature = true;
  if (active['retry-schedule-shifted']) faults.retryShiftMs = RETRY_SHIFT_MS;
  if (active['retry-attempt-missing']) faults.missingAttempts = [SKIPPED_ATTEMPT];
  if (active['webhook-body-changes-on-retry']) faults.bodyChangesOnRetry = true;
  return { faults, ...(active['webhook-timeout-30s'] ? { timeoutMs: SLACK_TIMEOUT_MS } : {}) };
}
