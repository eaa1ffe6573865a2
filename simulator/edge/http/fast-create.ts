// POST /v1/payments straight from node:http, for the one request an integration makes most: a valid create.
// The Hono chain (request log, canonical path, identify, rate limit, auth, body pipeline, route, c.json, the node
// adapter's Request/Response objects) cost about twice what the create itself does. This path runs the same
// functions the chain runs (resolveIdentity, the limiter, touch, checkCreate/createChecked, createView) and writes
// the same status, headers and body with one writeHead + end.
//
// It answers only the plain success. Whatever else it meets is handed to the Hono app as it came, which answers
// it as before: any method or target other than exactly `POST /v1/payments`, a header it reads sent twice, a body
// without Content-Length or over the cap, a Host the adapter would rewrite, a key that does not resolve to a
// usable identity, the rate limit reached, a body that is not JSON or not a valid create, an externalId in use.
// Those checks change nothing, so a request handed over is counted, touched and created once, by the chain.
// The body is read first (on the adapter's `rawBody` path when handed over), so the limiter counts a request
// and its key is touched when its body has arrived rather than when its headers did.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyStore } from '../../core/api-keys/api-key-store.ts';
import { resolveIdentity } from '../v1/identify.ts';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import type { LogSink } from '../logging/log-records.ts';
import type { PaymentService } from '../../core/payments/payment-service.ts';
import { createView } from '../../core/payments/views.ts';
import type { FixedWindowLimiter } from '../../core/rate-limit/fixed-window.ts';
import { rateLimitHeaders, rateLimitKey } from '../v1/rate-limit.ts';
import type { Logger } from '../../core/support/logger.ts';
import { normalizeIp } from '../../core/api-keys/ip-whitelist.ts';
import { ApiError } from './errors.ts';
import { DEFAULT_MAX_BODY_BYTES, JSON_MEDIA_TYPE } from './json-body.ts';
import { MESSAGES } from './messages.ts';

export interface FastCreateDeps {
  keys: Pick<ApiKeyStore, 'findByKey' | 'touch'>;
  clock: Pick<VirtualClock, 'now'>;
  limiter: Pick<FixedWindowLimiter, 'allows' | 'hit'>;
  payments: Pick<PaymentService, 'checkCreate' | 'createChecked' | 'store'>;
  payUrl: string;
  logger: Logger;
  log: LogSink | undefined;
  /**
   * Durable mode: resolves once the create is on disk (the journal's group commit); the answer waits for it, as the
   * chain's middleware makes every write wait. A failure is answered 500, as the chain's error handler answers it.
   */
  beforeAnswer?: () => Promise<void>;
}

/** Answers the request, or hands it to `fallback` (the Hono app's listener); true when it took the request. */
export type FastCreate = (incoming: IncomingMessage, outgoing: ServerResponse, fallback: (incoming: IncomingMessage, outgoing: ServerResponse) => void) => boolean;

const PATH = '/v1/payments';
// The node adapter builds the request URL from Host without parsing it only when Host matches this (its own test).
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

const isHttpWhitespace = (code: number): boolean => code === 9 || code === 10 || code === 13 || code === 32;

/** A header value as the adapter's Headers give it: HTTP whitespace trimmed at both ends (and only that). */
function headerValue(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

interface ReadHeaders {
  host: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
}

/** The headers this path reads, or undefined when one of them (or Transfer-Encoding) makes it hand the request over. */
function readHeaders(raw: string[]): ReadHeaders | undefined {
  const found: ReadHeaders = { host: undefined, authorization: undefined, contentType: undefined, contentLength: undefined };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    let field: keyof ReadHeaders;
    switch (name.length) {
      case 4:
        if (name.toLowerCase() !== 'host') continue;
        field = 'host';
        break;
      case 12:
        if (name.toLowerCase() !== 'content-type') continue;
        field = 'contentType';
        break;
      case 13:
        if (name.toLowerCase() !== 'authorization') continue;
        field = 'authorization';
        break;
      case 14:
        if (name.toLowerCase() !== 'content-length') continue;
        field = 'contentLength';
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') return undefined;
        continue;
      default:
        continue;
    }
    // Sent twice: the adapter joins the values; the chain answers that.
    if (found[field] !== undefined) return undefined;
    found[field] = headerValue(raw[i + 1] as string);
  }
  return found;
}

export function fastCreate(deps: FastCreateDeps): FastCreate {
  const { keys, clock, limiter, payments, payUrl, log } = deps;
  const identifyOptions = { keys, clock };
  return (incoming, outgoing, fallback) => {
    if (incoming.method !== 'POST' || incoming.url !== PATH) return false;
    const started = performance.now();
    const headers = readHeaders(incoming.rawHeaders);
    if (!headers || headers.host === undefined || !PLAIN_HOST.test(headers.host)) return false;
    const { contentLength, contentType, authorization } = headers;
    if (contentLength === undefined || !/^\d+$/.test(contentLength) || Number(contentLength) > DEFAULT_MAX_BODY_BYTES) return false;
    if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) return false;
    const identity = resolveIdentity(authorization, normalizeIp(incoming.socket.remoteAddress ?? '127.0.0.1'), identifyOptions);
    if (!identity.ok) return false;

    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      incoming.off('data', onData);
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      let answered: boolean;
      try {
        answered = answer(body);
      } catch {
        // Thrown before the commit point (a check that throws instead of refusing): nothing has changed, and the
        // chain meets the same error and answers it (500) as its error handler does.
        answered = false;
      }
      if (!answered) {
        // The adapter reads a body it finds here instead of the (consumed) stream.
        (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
        fallback(incoming, outgoing);
      }
    };
    // A client gone before its body arrived gets no answer, as from the chain.
    incoming.on('data', onData);
    incoming.once('end', onEnd);

    /**
     * The 201 when everything says it is one (then counted, touched and created here); false to hand it over. Past
     * the commit point it does not throw: a failure there is answered here as the chain's error handler would.
     */
    const answer = (bodyBytes: Buffer): boolean => {
      let body: unknown;
      try {
        body = JSON.parse(bodyBytes.toString('utf8'));
      } catch {
        return false;
      }
      const now = clock.now();
      const checked = payments.checkCreate(body, now);
      if (!checked.ok) return false;
      const { record } = identity;
      const { externalId } = checked.draft;
      if (externalId !== null && payments.store.liveHolder(record.merchantId, externalId) !== undefined) return false;
      const limitKey = rateLimitKey(identity);
      if (!limiter.allows(limitKey, now)) return false;
      // From here on the request is this path's, as it would have been the chain's: nothing above awaited.
      const limitHeaders = rateLimitHeaders(limiter.hit(limitKey, now));
      let status = 201;
      let json: string;
      let type = 'application/json';
      try {
        keys.touch(record, now);
        json = JSON.stringify(createView(payments.createChecked(record.merchantId, checked.draft, 'api', now), payUrl));
      } catch (error) {
        // As the app's error handler answers a bug: logged, a generic 500.
        deps.logger.error(`Unhandled error on POST ${PATH}`, error);
        const failure = new ApiError(500, MESSAGES.internal);
        status = failure.status;
        json = JSON.stringify(failure.body());
        type = 'application/json; charset=utf-8';
      }
      const send = (status: number, json: string, type: string): void => {
        // The header names and order the chain's response has on the wire (lower-case from the context's Headers,
        // Content-Length as the adapter adds it).
        outgoing.writeHead(status, {
          'content-type': type,
          'x-ratelimit-limit': limitHeaders['X-RateLimit-Limit'],
          'x-ratelimit-remaining': limitHeaders['X-RateLimit-Remaining'],
          'x-ratelimit-reset': limitHeaders['X-RateLimit-Reset'],
          'Content-Length': Buffer.byteLength(json),
        });
        outgoing.end(json);
        try {
          log?.({ kind: 'request', method: 'POST', path: PATH, status, ms: Math.round(performance.now() - started), merchant: record.merchantId });
        } catch (error) {
          deps.logger.error('request log failed', error);
        }
      };
      if (!deps.beforeAnswer) {
        send(status, json, type);
        return true;
      }
      deps.beforeAnswer().then(
        () => send(status, json, type),
        (error: unknown) => {
          deps.logger.error(`Unhandled error on POST ${PATH}`, error);
          const failure = new ApiError(500, MESSAGES.internal);
          send(failure.status, JSON.stringify(failure.body()), 'application/json; charset=utf-8');
        },
      );
      return true;
    };
    return true;
  };
}
