// A failure's reproduction: a curl command a person can paste. Secrets the run knows appear as
// shell variables ("$STABLEPAY_API_KEY"), so the command works once the variable is exported.
import type { Exchange } from './recorder.ts';
import type { SecretRegistry } from './redact.ts';

const SHOWN_REQUEST_HEADERS = new Set(['content-type', 'accept', 'idempotency-key']);

function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(exchange: Exchange, secrets: SecretRegistry): string {
  const parts = ['curl', '-i', '-X', exchange.method, singleQuote(secrets.scrub(exchange.url))];
  if (exchange.credential.kind === 'secret') {
    parts.push('-H', `"Authorization: Bearer $${exchange.credential.label}"`);
  } else if (exchange.credential.kind === 'public') {
    parts.push('-H', singleQuote(`Authorization: ${exchange.credential.header}`));
  }
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (SHOWN_REQUEST_HEADERS.has(name.toLowerCase())) parts.push('-H', singleQuote(`${name}: ${value}`));
    // An extra header of the run (-H): its value is a registered secret, recorded redacted; the command names the variable.
    else if (/^\[REDACTED:STABLEPAY_HEADER_\w+\]$/.test(value)) parts.push('-H', `"${name}: $${value.slice(10, -1)}"`);
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', quoteBody(exchange.requestBody, secrets));
  return parts.join(' ');
}

/** Single-quoted, unless the body carries a known secret: then double-quoted with `$LABEL`. */
function quoteBody(body: string, secrets: SecretRegistry): string {
  if (!secrets.values().some((value) => body.includes(value))) return singleQuote(secrets.scrub(body));
  const escaped = body.replace(/(["\\`$])/g, '\\$1');
  return `"${secrets.scrub(secrets.asShellVariables(escaped))}"`;
}
