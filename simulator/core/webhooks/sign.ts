// Webhook secrets and the HMAC of spec §6: hex HMAC-SHA256 over `<t>.<raw body>`.
// The key is the secret string exactly as shown to the merchant, prefix included (as Stripe
// does), so a merchant verifies with the value they copied, without stripping anything.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + 64 hex characters (256 bits of entropy). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('hex');
}

export function signPayload(secret: string, timestamp: number | string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

export function formatSignatureHeader(timestamp: number | string, signature: string): string {
  return `t=${timestamp},v1=${signature}`;
}
