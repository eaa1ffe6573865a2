// A webhook finding's delivery as plain text for the human reports (HTML, Markdown): the request line, the headers
// as received, the body (decoded when it is text), then the received and the expected signature and the commands
// that recompute it and replay the delivery. The JSON report keeps the exact bytes (base64).
import type { DeliveryEvidence } from '../webhooks/evidence.ts';

export function deliveryText(delivery: DeliveryEvidence): string {
  const body = Buffer.from(delivery.bodyBase64, 'base64');
  const text = body.toString('utf8');
  // eslint-disable-next-line no-control-regex
  const printable = Buffer.from(text, 'utf8').equals(body) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
  const { signature } = delivery;
  return [
    `${delivery.method} ${delivery.path}   (received ${delivery.receivedAt})`,
    ...Object.entries(delivery.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    printable ? text : `(binary body, ${body.length} bytes; base64 in the JSON report)`,
    '',
    `body sha256 ${delivery.bodySha256}${delivery.bodyRedacted ? ' (a secret in it was redacted)' : ''}`,
    `signature received  v1=${signature.actual ?? '(none)'}`,
    `signature expected  v1=${signature.expected ?? '(not computed: no secret or no timestamp)'}   HMAC-SHA256 with $${signature.secretVariable} over "<t>.<raw body>"`,
    ...(signature.diagnosis ? [`diagnosis: ${signature.diagnosis}`] : []),
    ...(signature.compute ? ['recompute:', `  ${signature.compute}`] : []),
    'replay:',
    `  ${delivery.replay}`,
  ].join('\n');
}
