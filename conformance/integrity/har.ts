// `--record <file.har>`: the run's traffic as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), built from
// what the recorder kept of every exchange, so it opens in browser devtools and HAR viewers. One page per check
// (`pageref` is the check id), and the webhook deliveries the suite's receiver got on a page of their own. Credentials never appear: Authorization, X-Api-Key, X-Control-Token and cookies are
// redacted in both directions, and every body, URL and header value is scrubbed of the secrets the run learnt
// (API keys, webhook secrets, checkout tokens).
import { STATUS_CODES } from 'node:http';
import type { Entry, Har, Header, Page, QueryString } from 'har-format';
import type { Exchange } from '../http/recorder.ts';
import { redactHeaders, type SecretRegistry } from '../http/redact.ts';
import type { Delivery } from '../webhooks/receiver.ts';

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
      ...(requestBody === undefined
        ? {}
        : { postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? 'application/octet-stream', text: requestBody } }),
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

/** Webhook deliveries the suite's receiver got: requests of the run too, in the other direction. */
export interface ReceivedDeliveries {
  /** The receiver's base URL (what the implementation posted to). */
  baseUrl: string;
  deliveries: Delivery[];
}

export const RECEIVED_PAGE = 'webhook deliveries received';

function deliveryEntry(delivery: Delivery, baseUrl: string, secrets: SecretRegistry): Entry {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const requestHeaders = redactHeaders(headers, secrets);
  const body = secrets.scrub(delivery.rawBody);
  const answer = RECEIVER_ANSWER;
  const entry: Entry = {
    pageref: RECEIVED_PAGE,
    startedDateTime: new Date(delivery.receivedAt).toISOString(),
    time: 0,
    request: {
      method: delivery.method,
      url: `${baseUrl}${delivery.path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(requestHeaders),
      queryString: [],
      postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? 'application/octet-stream', text: body },
      headersSize: -1,
      bodySize: delivery.rawBytes.length,
    },
    response: {
      status: delivery.answeredStatus,
      statusText: STATUS_CODES[delivery.answeredStatus] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: Buffer.byteLength(answer), mimeType: 'application/json', text: answer },
      redirectURL: '',
      headersSize: -1,
      bodySize: Buffer.byteLength(answer),
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    comment: `${delivery.id}, received by the suite's webhook receiver`,
  };
  (entry as Entry & { _deliveryId: string })._deliveryId = delivery.id;
  return entry;
}

/** What the suite's receiver answers every delivery (receiver.ts). */
const RECEIVER_ANSWER = JSON.stringify({ received: true });

export function toHar(
  exchanges: Exchange[],
  secrets: SecretRegistry,
  creator: { name: string; version: string },
  received?: ReceivedDeliveries,
): Har {
  const pages: Page[] = [];
  const seen = new Set<string>();
  for (const exchange of exchanges) {
    if (seen.has(exchange.checkId)) continue;
    seen.add(exchange.checkId);
    pages.push({ id: exchange.checkId, title: exchange.checkId, startedDateTime: exchange.startedAt, pageTimings: {} });
  }
  const entries = exchanges.map((exchange) => entryOf(exchange, secrets));
  if (received && received.deliveries.length > 0) {
    const deliveries = received.deliveries.map((delivery) => deliveryEntry(delivery, received.baseUrl, secrets));
    pages.push({ id: RECEIVED_PAGE, title: RECEIVED_PAGE, startedDateTime: deliveries[0]!.startedDateTime, pageTimings: {} });
    entries.push(...deliveries);
    // One timeline: the suite's calls and the deliveries it received, in time order (stable for equal times).
    entries.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  }
  return { log: { version: '1.2', creator, pages, entries } };
}

export function renderHar(
  exchanges: Exchange[],
  secrets: SecretRegistry,
  creator: { name: string; version: string },
  received?: ReceivedDeliveries,
): string {
  return `${JSON.stringify(toHar(exchanges, secrets, creator, received), null, 2)}\n`;
}
