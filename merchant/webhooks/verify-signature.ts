// `stablepay/webhooks`: the receiver's side of spec §6, for merchants. verifyWebhookSignature takes
// the raw request body (the exact bytes received, before any JSON parsing), the X-Service-Signature
// header as the HTTP library hands it over (Node's `req.headers[...]` is `string | string[] | undefined`; of an array
// the first value counts, as stripe-node does) and the endpoint's secret (whsec_..., used whole as the HMAC key), and runs the spec's
// four steps: parse t= and v1=; reject a timestamp more than `toleranceSeconds` (300) away from
// `now`, in either direction; HMAC-SHA256 over `<t>.<raw body>`; constant-time compare.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** Allowed distance between t= and now, in seconds, either way (spec: 300). */
  toleranceSeconds?: number;
  /** The receiver's current time: a Date or ms since the epoch (default: Date.now()). */
  now?: Date | number;
}

export type WebhookVerification =
  | { ok: true; timestamp: number }
  | { ok: false; step: 'format' | 'tolerance' | 'signature'; message: string };

/** The elements of an X-Service-Signature value, or null when t= or v1= is missing (step 1). */
export function parseSignatureHeader(header: string): { timestamp: string; signature: string } | null {
  const parts = new Map<string, string>();
  for (const element of header.split(',')) {
    const index = element.indexOf('=');
    if (index > 0) parts.set(element.slice(0, index).trim(), element.slice(index + 1).trim());
  }
  const timestamp = parts.get('t');
  const signature = parts.get('v1');
  return timestamp && signature ? { timestamp, signature } : null;
}

/** The header as HTTP libraries give it: absent, one value, or (Node, for a repeated header) several. */
export type SignatureHeader = string | readonly string[] | null | undefined;

export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: SignatureHeader,
  secret: string,
  options: VerifyOptions = {},
): WebhookVerification {
  // 1. Format. A header sent twice counts by its first value.
  const value = typeof header === 'string' ? header : header?.[0];
  const parsed = value ? parseSignatureHeader(value) : null;
  if (!parsed) return { ok: false, step: 'format', message: 'X-Service-Signature must carry t=<timestamp> and v1=<signature>' };
  if (!/^\d+$/.test(parsed.timestamp)) return { ok: false, step: 'format', message: `t=${parsed.timestamp} is not a Unix time in seconds` };
  // 2. Tolerance, both ways: a timestamp from the future is as suspect as a stale one.
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const timestamp = Number(parsed.timestamp);
  const skew = Math.abs(Math.floor(nowMs / 1000) - timestamp);
  if (skew > tolerance)
    return { ok: false, step: 'tolerance', message: `timestamp is ${skew} s from now; the tolerance is ${tolerance} s` };
  // 3. HMAC-SHA256, hex, over "<t>.<raw body>" with the whole secret as the key.
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.`, 'utf8').update(body).digest('hex');
  // 4. Constant-time compare; unequal lengths are a mismatch, not an exception.
  const given = Buffer.from(parsed.signature, 'utf8');
  const wanted = Buffer.from(expected, 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    return { ok: false, step: 'signature', message: 'v1 is not the HMAC-SHA256 of "<t>.<raw body>" under this secret' };
  }
  return { ok: true, timestamp };
}

export type { WebhookEventType, WebhookPayload } from '@stablepay/contract/types';
