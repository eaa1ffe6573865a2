// One route answered straight from node:http, for the request an integration makes most (POST /v1/payments). The
// Hono chain's per-request objects (the adapter's Request and Response, the context, a promise per middleware) cost
// about twice what a create itself does. This path runs the pipeline's own stages (pipeline.ts: their direct steps,
// in the list's order), then the route's own handler, and renders whatever they throw with the chain's error
// rendering, so it writes the status, headers and body the chain writes, with one writeHead + end.
//
// It hands a request to the chain, untouched, only for what it does not frame itself, before any stage has run:
// another method or target than exactly the route's, a header it reads sent twice, Transfer-Encoding, a body
// without Content-Length or over the cap, a Content-Type that is not JSON, a Host the adapter would rewrite. The
// body is read before the stages run, so a request is counted and its key touched once its body has arrived.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizeIp } from '../../core/api-keys/ip-whitelist.ts';
import type { Logger } from '../../core/support/logger.ts';
import { ApiError } from './errors.ts';
import { MESSAGES } from './messages.ts';
import { toApiError } from './error-handler.ts';
import { DEFAULT_MAX_BODY_BYTES, JSON_MEDIA_TYPE, parseJsonBody } from './json-body.ts';
import type { DirectRequest, DirectStep } from './pipeline.ts';

/** What the route answers with when nothing was thrown. */
export interface DirectAnswer {
  status: number;
  body: unknown;
}

/** The route, as the chain runs it after the stages: the same handler, given the parsed JSON body. */
export interface DirectRoute {
  method: string;
  path: string;
  /** May be asynchronous (a store behind a network); throws an ApiError or a domain refusal as the chain's route would. */
  handle(request: DirectRequest, body: unknown): DirectAnswer | Promise<DirectAnswer>;
}

export interface DirectPathOptions {
  /** The pipeline's direct steps (directSteps() of the declared stages). */
  steps: readonly DirectStep[];
  route: DirectRoute;
  logger: Logger;
}

/** True when it took the request (and answers it); false leaves it, untouched, to the Hono app. */
export type DirectPath = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

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

interface FramingHeaders {
  host: string | undefined;
  authorization: string | undefined;
  'content-type': string | undefined;
  'content-length': string | undefined;
}

/**
 * The headers the path frames a request by (and the one the stages read), or undefined when one of them is sent
 * twice (the adapter joins the values; the chain answers that) or Transfer-Encoding is present. Names are matched
 * by length first: this runs on every create.
 */
function readHeaders(raw: string[]): FramingHeaders | undefined {
  const found: FramingHeaders = { host: undefined, authorization: undefined, 'content-type': undefined, 'content-length': undefined };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    let field: keyof FramingHeaders;
    switch (name.length) {
      case 4:
        if (name.toLowerCase() !== 'host') continue;
        field = 'host';
        break;
      case 12:
        if (name.toLowerCase() !== 'content-type') continue;
        field = 'content-type';
        break;
      case 13:
        if (name.toLowerCase() !== 'authorization') continue;
        field = 'authorization';
        break;
      case 14:
        if (name.toLowerCase() !== 'content-length') continue;
        field = 'content-length';
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') return undefined;
        continue;
      default:
        continue;
    }
    if (found[field] !== undefined) return undefined;
    found[field] = headerValue(raw[i + 1] as string);
  }
  return found;
}

/** Any other header, as the adapter gives it (several values joined), for a stage that reads one. */
function otherHeader(raw: string[], wanted: string): string | undefined {
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === wanted) values.push(headerValue(raw[i + 1] as string));
  return values.length > 0 ? values.join(', ') : undefined;
}

/** How the chain's adapter writes an answer's headers, which depends on how the answer was built. */
type WireForm =
  /** A web Headers object (c.json, or headers added to a finished response): lower-case, sorted, Content-Length after. */
  | 'headers-object'
  /** Headers added to a finished response, which the adapter then measures itself: as above, content-length lower-case. */
  | 'headers-object-measured'
  /** A plain object given to new Response() (ApiError.getResponse()): as given, in order, Content-Length after. */
  | 'as-given';

/** Header names and order as the chain's answer has them on the wire. */
function wireHeaders(headers: Record<string, string>, body: string, form: WireForm, close: boolean): Record<string, string | number> {
  const wire: Record<string, string | number> = {};
  if (form === 'as-given') Object.assign(wire, headers);
  else {
    const lower: Record<string, string> = {};
    for (const name in headers) lower[name.toLowerCase()] = headers[name] as string;
    for (const name of Object.keys(lower).sort()) wire[name] = lower[name] as string;
  }
  // The chain answers a refusal made before its route read the body without reading it, so it closes the connection
  // (the adapter puts that header before the length it adds, after one the response carries).
  const length = Buffer.byteLength(body);
  if (form === 'headers-object-measured') wire['content-length'] = length;
  if (close) wire.Connection = 'close';
  if (form !== 'headers-object-measured') wire['Content-Length'] = length;
  return wire;
}

export function directPath({ steps, route, logger }: DirectPathOptions): DirectPath {
  const { method, path } = route;
  return (incoming, outgoing) => {
    if (incoming.method !== method || incoming.url !== path) return false;
    const started = performance.now();
    const headers = readHeaders(incoming.rawHeaders);
    if (!headers || headers.host === undefined || !PLAIN_HOST.test(headers.host)) return false;
    const contentLength = headers['content-length'];
    if (contentLength === undefined || !/^\d+$/.test(contentLength) || Number(contentLength) > DEFAULT_MAX_BODY_BYTES) return false;
    const contentType = headers['content-type'];
    if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) return false;

    const request: DirectRequest = {
      method,
      path,
      header: (name) => (name in headers ? headers[name as keyof FramingHeaders] : otherHeader(incoming.rawHeaders, name)),
      remoteAddress: normalizeIp(incoming.socket.remoteAddress ?? '127.0.0.1'),
      vars: {},
      answerHeaders: {},
      started,
    };

    // Set once a stage refuses: the chain would have answered without reading the body (see wireHeaders).
    let refusedBeforeRoute = false;
    const write = (status: number, body: string, own: Record<string, string>, form: WireForm = 'headers-object'): void => {
      outgoing.writeHead(status, wireHeaders(own, body, form, refusedBeforeRoute));
      outgoing.end(body);
      for (const step of steps) {
        try {
          step.afterAnswer?.(request, status);
        } catch (error) {
          logger.error('request log failed', error);
        }
      }
    };
    // As the chain's error handler renders it; the stages' headers go on every answer (as rate-limit.ts makes sure).
    const rendered = (error: unknown): [number, string, Record<string, string>, WireForm] => {
      const refusal = toApiError(error, logger, method, path);
      const own: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...refusal.headers };
      let added = false;
      for (const name in request.answerHeaders) {
        if (name in own) continue;
        own[name] = request.answerHeaders[name] as string;
        added = true;
      }
      return [refusal.status, JSON.stringify(refusal.body()), own, added ? 'headers-object-measured' : 'as-given'];
    };
    // Steps that must finish before the answer goes out (durable mode's commit); one that fails makes it a 500.
    const answer = (status: number, body: string, own: Record<string, string>, form?: WireForm): void => {
      let commit: Promise<void> | undefined;
      for (const step of steps) {
        const pending = step.beforeAnswer?.(request, status);
        if (pending) commit = commit ? commit.then(() => pending) : pending;
      }
      if (!commit) {
        write(status, body, own, form);
        return;
      }
      commit.then(
        () => write(status, body, own, form),
        (error: unknown) => write(...rendered(error)),
      );
    };
    const answered = (result: DirectAnswer): void => {
      answer(result.status, JSON.stringify(result.body), { 'content-type': 'application/json', ...request.answerHeaders });
    };
    const failed = (error: unknown): void => answer(...rendered(error));

    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
    };
    // A client gone before its body arrived is answered as the chain answers it (a 400 nobody reads, in the request
    // log like any other request), never left unrecorded.
    const cutShort = (): void => {
      if (!incoming.complete) answer(...rendered(new ApiError(400, MESSAGES.bodyCutShort)));
    };
    incoming.on('data', onData);
    incoming.once('close', cutShort);
    incoming.once('end', () => {
      incoming.off('data', onData);
      incoming.off('close', cutShort);
      const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
      try {
        refusedBeforeRoute = true;
        for (const step of steps) step.before?.(request);
        refusedBeforeRoute = false;
        const result = route.handle(request, parseJsonBody(text, contentType));
        if (result instanceof Promise) result.then(answered, failed);
        else answered(result);
      } catch (error) {
        failed(error);
      }
    });
    return true;
  };
}
