// The request of one attempt (spec §6 "Headers on every delivery"): the stored body, signed and
// stamped per attempt so a retry is re-stamped. The signed timestamp is wall time, because the
// receiver checks it against its own clock (±300 s); the attempt's virtual instant, which the
// retry schedule runs on, travels in a simulator header of its own (docs/decisions.md).
import { formatSignatureHeader, signPayload } from './sign.ts';

export interface AttemptInput {
  /** Virtual instant of the attempt (its scheduled time), ms since the epoch. */
  instantMs: number;
  /** Wall-clock instant the request is signed at, ms since the epoch. */
  signedAtMs: number;
  secret: string;
  /** The delivery's id: one value for every attempt (and chaos duplicate) of one delivery. */
  deliveryId: string;
  rawBody: string;
  userAgent: string;
  /** 1-based attempt number. */
  attempt: number;
}

export interface AttemptRequest {
  headers: Record<string, string>;
  body: string;
}

/** The seam the service sends through; the composition root may wrap it. */
export type BuildAttemptRequest = (input: AttemptInput) => AttemptRequest;

/** Unix seconds of the attempt's virtual instant; not part of the spec, and not signed. */
export const ATTEMPT_TIME_HEADER = 'X-Simulator-Attempt-Timestamp';

/** The delivery's id, for a receiver to deduplicate on (assumed extension, `ServiceDeliveryId` in the contract). */
export const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';

export function deliveryHeaders(input: Omit<AttemptInput, 'attempt'>): Record<string, string> {
  const timestamp = Math.floor(input.signedAtMs / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': input.userAgent,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': formatSignatureHeader(timestamp, signPayload(input.secret, timestamp, input.rawBody)),
    [DELIVERY_ID_HEADER]: input.deliveryId,
    [ATTEMPT_TIME_HEADER]: String(Math.floor(input.instantMs / 1000)),
  };
}

export const buildAttemptRequest: BuildAttemptRequest = (input) => ({ headers: deliveryHeaders(input), body: input.rawBody });
