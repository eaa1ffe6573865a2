// `--record <file.har>`: the run's traffic as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), built from
// what the recorder kept of every exchange, so it opens in browser devtools and HAR viewers. One page per check
// (`pageref` is the check id). Credentials never appear: Authorization, X-Api-Key, X-Control-Token and cookies are
// redacted in both directions, and every body, URL and header value is scrubbed of the secrets the run learnt
// (API keys, webhook secrets, checkout tokens).
import { STATUS_CODES } from 'node:http';
import type { Entry, Har, Header, Page, QueryString } from 'har-format';
import type { Exchange } from '../http/recorder.ts';
import { redactHeaders, type SecretRegistry } from '../http/redact.ts';

function headerList(headers: Record<string, string>): Header[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): QueryString[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function entryOf(exchange: Exchange, secrets: SecretRegistry): Entry {
  // Request headers were redacted when recorded (the credential kept as its label); response headers are redacted here.
  const requestHeaders = Object.fromEntries(Object.entries(exchange.requestHeaders).map(([name, value]) => [name, secrets.scrub(value)]));
  const responseHeaders = redactHeaders(exchange.responseHeaders, secrets);
  const url = secrets.scrub(exchange.url);
  const requestBody = exchange.requestBody === undefined ? undefined : secrets.scrub(exchange.requestBody);
  const responseBody = secrets.scrub(exchange.responseBody);
  const responseType = headerValue(responseHeaders, 'content-type') ?? 'x-unknown';
  const entry: Entry = {
    pageref: exchange.checkId,
    startedDateTime: exchange.startedAt,
    time: exchange.durationMs,
    request: {
      method: exchange.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(requestHeaders),
      queryString: queryOf(url),
      ...(requestBody === undefined ? {} : { postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? 'application/octet-stream', text: requestBody } }),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : Buffer.byteLength(requestBody),
    },
    response: {
      // HAR has no "no response": a transport failure is status 0 with the error in `_error` (devtools does the same).
      status: exchange.status ?? 0,
      statusText: exchange.status === null ? '' : (STATUS_CODES[exchange.status] ?? ''),
      httpVersion: exchange.status === null ? '' : 'HTTP/1.1',
      cookies: [],
      headers: headerList(responseHeaders),
      content: { size: Buffer.byteLength(responseBody), mimeType: responseType, text: responseBody },
      redirectURL: headerValue(responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: exchange.status === null ? -1 : Buffer.byteLength(responseBody),
    },
    cache: {},
    // The recorder keeps the whole exchange's duration; HAR asks for phases, so it is all `wait`.
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    comment: `${exchange.target} API, check ${exchange.checkId}`,
  };
  if (exchange.transportError) (entry as Entry & { _error: string })._error = secrets.scrub(exchange.transportError);
  return entry;
}

export function toHar(exchanges: Exchange[], secrets: SecretRegistry, creator: { name: string; version: string }): Har {
  const pages: Page[] = [];
  const seen = new Set<string>();
  for (const exchange of exchanges) {
    if (seen.has(exchange.checkId)) continue;
    seen.add(exchange.checkId);
    pages.push({ id: exchange.checkId, title: exchange.checkId, startedDateTime: exchange.startedAt, pageTimings: {} });
  }
  return { log: { version: '1.2', creator, pages, entries: exchanges.map((exchange) => entryOf(exchange, secrets)) } };
}

export function renderHar(exchanges: Exchange[], secrets: SecretRegistry, creator: { name: string; version: string }): string {
  return `${JSON.stringify(toHar(exchanges, secrets, creator), null, 2)}\n`;
}
