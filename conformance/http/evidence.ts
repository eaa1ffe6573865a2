// What a finding carries about the call it is about: the curl line that repeats it and the call as sent and
// answered. One place builds both, so every finding made from an exchange has the same evidence, and `stablepay
// replay` can name the check that sent a call a cross-cutting check judged.
import { toCurl } from './curl.ts';
import type { Exchange } from './recorder.ts';
import type { SecretRegistry } from './redact.ts';

/** What one recorded request sent and what came back (credentials as labels, secrets scrubbed, bodies cut short). */
export interface ExchangeSummary {
  /** The check that sent it (a cross-cutting check judges other checks' requests). */
  checkId: string;
  method: string;
  url: string;
  /** The variable standing for the credential it carried (STABLEPAY_API_KEY, MERCHANT_1_API_KEY), if any. */
  credential: string | null;
  requestBody?: string;
  status: number | null;
  responseBody: string;
  transportError: string | null;
}

/** Bodies kept in a finding: enough to see what went wrong, not a whole page of payments. */
const BODY_KEEP = 2000;

function cut(text: string): string {
  return text.length > BODY_KEEP ? `${text.slice(0, BODY_KEEP)}… (${text.length} characters)` : text;
}

export function summarizeExchange(exchange: Exchange, secrets: SecretRegistry): ExchangeSummary {
  return {
    checkId: exchange.checkId,
    method: exchange.method,
    url: secrets.scrub(exchange.url),
    credential: exchange.credential.kind === 'secret' ? exchange.credential.label : null,
    ...(exchange.requestBody !== undefined ? { requestBody: cut(secrets.scrub(exchange.requestBody)) } : {}),
    status: exchange.status,
    responseBody: cut(secrets.scrub(exchange.responseBody)),
    transportError: exchange.transportError,
  };
}

/** The reproduction and the exchange of a finding about `exchange` (none when the finding is about no one call). */
export function evidenceOf(
  exchange: Exchange | undefined,
  secrets: SecretRegistry,
): { reproduction: string | null; exchange?: ExchangeSummary } {
  if (!exchange) return { reproduction: null };
  return { reproduction: toCurl(exchange, secrets), exchange: summarizeExchange(exchange, secrets) };
}
