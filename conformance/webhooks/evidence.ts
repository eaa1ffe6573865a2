// A webhook finding's evidence: the delivery exactly as the receiver got it (headers, and the raw body in base64 so
// no byte is lost to JSON or to a terminal), the signature it carried and the one the suite expected, with the
// secret shown as a shell variable and never as a value, and the commands that recompute the HMAC and re-post the
// delivery (`stablepay replay-delivery`). An implementer debugging their signer has all they need.
import { createHash, createHmac } from 'node:crypto';
import type { Delivery } from './receiver.ts';
import { parseSignatureHeader, sign } from './signature.ts';
import { redactHeaders, type SecretRegistry } from '../http/redact.ts';

/** The variable every reproduction reads the endpoint's webhook secret from. */
export const WEBHOOK_SECRET_VARIABLE = 'STABLEPAY_WEBHOOK_SECRET';

export interface SignatureEvidence {
  /** X-Service-Signature as received (null when absent). */
  header: string | null;
  /** Its `t=` part. */
  timestamp: string | null;
  /** Its `v1=` part: what the implementation computed. */
  actual: string | null;
  /** HMAC-SHA256 of `<t>.<raw body>` with the endpoint's secret: what it should have sent (null without a `t`). */
  expected: string | null;
  /** Which input the actual signature was computed over, when it matches a usual mistake. */
  diagnosis: string | null;
  /** Shell variable holding the secret in the commands below; the report never holds its value. */
  secretVariable: string;
  /** Recomputes `expected` with openssl from the recorded body. */
  compute: string | null;
}

export interface DeliveryEvidence {
  id: string;
  receivedAt: string;
  method: string;
  /** The receiver path it was posted to (the suite's receiver; replay it to yours with --to). */
  path: string;
  /** Headers as received, names lower-cased; credentials redacted. */
  headers: Record<string, string>;
  bodyBase64: string;
  bodySha256: string;
  /** True when the body carried a secret and was redacted before encoding (then it is not byte-exact). */
  bodyRedacted: boolean;
  signature: SignatureEvidence;
  /** Re-posts this delivery to a receiver of your choice. */
  replay: string;
}

function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function headerOf(delivery: Delivery, name: string): string | null {
  const value = delivery.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The usual ways a signer goes wrong, tried in order against the received v1. */
function diagnose(secret: string, t: string, body: string, actual: string): string | null {
  const hmac = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('hex');
  const candidates: [string, () => string][] = [
    ['v1 is the HMAC of the raw body alone, without the `<t>.` prefix', () => hmac(secret, body)],
    ['v1 is the HMAC of `<t><raw body>`, without the dot', () => hmac(secret, `${t}${body}`)],
    [
      'v1 is keyed with the secret without its `whsec_` prefix (the key is the whole secret string)',
      () => hmac(secret.replace(/^whsec_/, ''), `${t}.${body}`),
    ],
    ['v1 is upper-case hex (it must be lower-case)', () => hmac(secret, `${t}.${body}`).toUpperCase()],
    [
      'v1 was computed over a re-serialised body, not the bytes sent',
      () => {
        try {
          return hmac(secret, `${t}.${JSON.stringify(JSON.parse(body))}`);
        } catch {
          return '';
        }
      },
    ],
  ];
  for (const [reason, compute] of candidates) if (compute() === actual && actual !== hmac(secret, `${t}.${body}`)) return reason;
  return 'v1 matches none of the usual mistakes (body alone, no dot, secret without its prefix, upper-case hex, re-serialised body): the key or the bytes signed differ';
}

/**
 * `secret`: the endpoint's secret when the check knows it (then the expected signature is computed);
 * `reportDir`: where the report is written, for the replay command.
 */
export function deliveryEvidence(
  delivery: Delivery,
  options: { secret?: string; secrets: SecretRegistry; reportDir: string },
): DeliveryEvidence {
  const { secrets } = options;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers))
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  const scrubbedBody = secrets.scrub(delivery.rawBody);
  const bodyRedacted = scrubbedBody !== delivery.rawBody;
  const bodyBytes = bodyRedacted ? Buffer.from(scrubbedBody, 'utf8') : delivery.rawBytes;
  const bodyBase64 = bodyBytes.toString('base64');
  const header = headerOf(delivery, 'x-service-signature');
  const parsed = header ? parseSignatureHeader(header) : null;
  const t = parsed?.t ?? headerOf(delivery, 'x-service-timestamp');
  const actual = parsed?.v1 ?? null;
  const expected = options.secret && t !== null ? sign(options.secret, t, delivery.rawBody) : null;
  const diagnosis =
    options.secret && t !== null && actual && actual !== expected ? diagnose(options.secret, t, delivery.rawBody, actual) : null;
  const compute =
    t === null
      ? null
      : `{ printf '%s.' ${singleQuote(t)}; printf '%s' ${singleQuote(bodyBase64)} | base64 -d; } | openssl dgst -sha256 -hmac "$${WEBHOOK_SECRET_VARIABLE}"`;
  return {
    id: delivery.id,
    receivedAt: new Date(delivery.receivedAt).toISOString(),
    method: delivery.method,
    path: delivery.path,
    headers: redactHeaders(headers, secrets),
    bodyBase64,
    bodySha256: createHash('sha256').update(bodyBytes).digest('hex'),
    bodyRedacted,
    signature: { header, timestamp: t, actual, expected, diagnosis, secretVariable: WEBHOOK_SECRET_VARIABLE, compute },
    replay: `stablepay replay-delivery ${singleQuote(options.reportDir)} --delivery ${delivery.id} --to "$WEBHOOK_URL"`,
  };
}
