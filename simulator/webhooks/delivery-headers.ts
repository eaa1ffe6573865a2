// The headers of one attempt (spec §6 "Headers on every delivery"), re-stamped per attempt.
// Faults bend exactly one rule each, so a conformance check can be shown to catch it.
import type { WebhookFaults } from './faults.ts';
import { createHmac } from 'node:crypto';
import { formatSignatureHeader, signPayload } from './sign.ts';

export interface HeaderInput {
  /** Virtual instant of the attempt, ms since the epoch. */
  instantMs: number;
  secret: string;
  rawBody: string;
  userAgent: string;
  faults: WebhookFaults;
}

export function deliveryHeaders(input: HeaderInput): Record<string, string> {
  const { faults } = input;
  const seconds = Math.floor(input.instantMs / 1000) + faults.timestampSkewSeconds;
  const timestamp = faults.timestampInMs ? seconds * 1000 + (input.instantMs % 1000) : seconds;
  const key = faults.wrongSignature ? `${input.secret}-wrong` : input.secret;
  const signature = faults.signedBodyOnly
    ? createHmac('sha256', key).update(input.rawBody, 'utf8').digest('hex')
    : signPayload(key, timestamp, input.rawBody);
  return {
    'Content-Type': 'application/json',
    'User-Agent': input.userAgent,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': faults.signatureWithoutTimestamp
      ? `v1=${signature}`
      : formatSignatureHeader(timestamp, signature),
  };
}
