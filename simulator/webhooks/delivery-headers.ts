// The request of one attempt (spec §6 "Headers on every delivery"): the stored body, signed and
// stamped with the attempt's instant. Built per attempt so a retry is re-stamped.
import { formatSignatureHeader, signPayload } from './sign.ts';

export interface AttemptInput {
  /** Virtual instant of the attempt, ms since the epoch. */
  instantMs: number;
  secret: string;
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

export function deliveryHeaders(input: Omit<AttemptInput, 'attempt'>): Record<string, string> {
  const timestamp = Math.floor(input.instantMs / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': input.userAgent,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': formatSignatureHeader(timestamp, signPayload(input.secret, timestamp, input.rawBody)),
  };
}

export const buildAttemptRequest: BuildAttemptRequest = (input) => ({ headers: deliveryHeaders(input), body: input.rawBody });
