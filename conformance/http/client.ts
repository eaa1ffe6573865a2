// The suite's only way to talk HTTP to an implementation. Every call is recorded (see recorder.ts)
// with its credential reduced to a label, so reports can reproduce it without leaking the key.
import { Agent, Dispatcher, request } from 'undici';
import type { CredentialRecord, Exchange, Recorder, Target } from './recorder.ts';
import { redactHeaders, type SecretRegistry } from './redact.ts';
import { formatBytes, formatSeconds } from '../units.ts';
import { currentScope, ScopeAborted, type PendingRequest } from './request-scope.ts';

/** A secret API key (recorded by label) or a deliberately invalid public header value. */
export type Credential = { key: string; label: string } | { header: string };

export interface RequestSpec {
  method: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Serialised as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Raw body sent as-is (for malformed-body cases). */
  body?: string;
  headers?: Record<string, string>;
  /** undefined = the client's default credential; null = no Authorization header. */
  auth?: Credential | null;
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  exchange: Exchange;
}

/** Why a request got no usable answer; `aborted` is the run stopping or the check being given up, never a finding. */
export type TransportFailure = 'timeout' | 'too-large' | 'closed' | 'refused' | 'not-http' | 'aborted' | 'other';

export class TransportError extends Error {
  readonly exchange: Exchange;
  constructor(
    message: string,
    exchange: Exchange,
    readonly kind: TransportFailure = 'other',
    /** The reason alone, without the request line: `no complete answer within 15 s (--request-timeout)`. */
    readonly reason: string = message,
  ) {
    super(message);
    this.name = 'TransportError';
    this.exchange = exchange;
  }
}

export interface HttpClientOptions {
  baseUrl: string;
  target: Target;
  recorder: Recorder;
  secrets: SecretRegistry;
  credential: Credential | null;
  /** Deadline of one request: connect, headers and the whole body (--request-timeout). */
  timeoutMs: number;
  /** A body longer than this is not read further: the request is aborted (--max-response-bytes). */
  maxResponseBytes: number;
  dispatcher: Dispatcher;
  /** Sent on every request (e.g. the control API's X-Control-Token); values are scrubbed as secrets by the caller's registry. */
  headers?: Record<string, string>;
  /** The spare target instance this client talks to (black-box lanes, 1 for the first spare); absent for the main one. */
  instance?: number;
  /** Called before a request is sent; throws to refuse it (a check doing what it did not declare: scheduling/guards.ts). */
  guard?: (request: { method: string; path: string; credential: Credential | null }) => void | Promise<void>;
  /** Told of every answered request, with the client that made it (e.g. to remember the payments a check created). */
  observe?: (
    client: HttpClient,
    request: { method: string; path: string; checkId: string; json?: unknown; startedAtMs?: number },
    response: { status: number; json: unknown },
  ) => void;
}

/**
 * The suite's connections to the implementation, kept alive. `renew()` after moving a black-box target's clock
 * (libfaketime): after a jump the target believes its idle connections timed out and closes them, and a request sent
 * on one would fail with ECONNRESET; from `renew()` on every request takes a fresh connection (the old agent closes once
 * the requests it carries end). Nothing else of the run talks to a target whose clock just moved: the mover holds it
 * alone (scheduling/resources.ts).
 */
export class RenewableAgent extends Dispatcher {
  private current = RenewableAgent.make();
  private static make(): Agent {
    return new Agent({ keepAliveTimeout: 10_000, connections: 64, pipelining: 1 });
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.current.dispatch(options, handler);
  }

  renew(): void {
    const old = this.current;
    this.current = RenewableAgent.make();
    void old.close().catch(() => undefined);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closing = this.current.close();
    if (!callback) return closing;
    void closing.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const callback = typeof first === 'function' ? first : second;
    const destroying = this.current.destroy(typeof first === 'function' ? null : (first ?? null));
    if (!callback) return destroying;
    void destroying.then(callback, callback);
  }
}

export function createDispatcher(): RenewableAgent {
  return new RenewableAgent();
}

export class HttpClient {
  readonly options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.options = options;
  }

  /** Same target and recorder, another default credential (e.g. a second merchant's key). */
  withCredential(credential: Credential | null): HttpClient {
    return new HttpClient({ ...this.options, credential });
  }

  url(path: string, query?: RequestSpec['query']): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async request(spec: RequestSpec): Promise<HttpResponse> {
    const { recorder, secrets } = this.options;
    const url = this.url(spec.path, spec.query);
    const credential = spec.auth === undefined ? this.options.credential : spec.auth;
    await this.options.guard?.({ method: spec.method, path: spec.path, credential });
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...spec.headers };
    let credentialRecord: CredentialRecord = { kind: 'none' };
    if (credential && 'key' in credential) {
      secrets.add(credential.key, credential.label);
      headers.authorization = `Bearer ${credential.key}`;
      credentialRecord = { kind: 'secret', label: credential.label };
    } else if (credential) {
      secrets.addPublic(credential.header);
      const token = credential.header.replace(/^\S+\s+/, '');
      if (token && token !== credential.header) secrets.addPublic(token);
      headers.authorization = credential.header;
      credentialRecord = { kind: 'public', header: credential.header };
    }
    let body = spec.body;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] ??= 'application/json';
    }
    const startedAt = new Date();
    const started = performance.now();
    const base = {
      target: this.options.target,
      method: spec.method,
      url,
      requestHeaders: redactHeaders(headers, secrets),
      credential: credentialRecord,
      requestBody: body,
      startedAt: startedAt.toISOString(),
      ...(this.options.instance ? { instance: this.options.instance } : {}),
    };
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs;
    const maxBytes = this.options.maxResponseBytes;
    const scope = currentScope();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeadlineReached()), timeoutMs);
    // The scope's signal aborts the request when the run stops (interrupt, --max-run-time) or its check is given up.
    const signals = [deadline.signal, ...(scope ? [scope.signal] : [])];
    const pending: PendingRequest = { method: spec.method, url, startedAt: Date.now(), deadlineMs: timeoutMs };
    scope?.pending.add(pending);
    let received: { status: number; headers: Record<string, string>; bytes: number; prefix: string } | undefined;
    try {
      // Checked before anything is sent: a request of a check the run has given up on goes nowhere.
      for (const signal of signals) if (signal.aborted) throw signal.reason;
      // Redirects are never followed (undici's request does not): a 3xx is judged like any other answer.
      const response = await request(url, {
        method: spec.method as 'GET',
        headers,
        body,
        dispatcher: this.options.dispatcher,
        signal: AbortSignal.any(signals),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      received = { status: response.statusCode, headers: flattenHeaders(response.headers), bytes: 0, prefix: '' };
      const text = await readBounded(response.body, maxBytes, received);
      const exchange = recorder.add(
        {
          ...base,
          status: response.statusCode,
          responseHeaders: received.headers,
          responseBody: text,
          durationMs: Math.round(performance.now() - started),
          transportError: null,
        },
        scope?.checkId,
      );
      const json = parseJson(text);
      this.options.observe?.(
        this,
        { method: spec.method, path: spec.path, checkId: exchange.checkId, json: spec.json, startedAtMs: Date.parse(exchange.startedAt) },
        { status: response.statusCode, json },
      );
      return { status: response.statusCode, headers: received.headers, text, json, exchange };
    } catch (error) {
      const failure = describeFailure(error, { timeoutMs, maxBytes, received });
      const exchange = recorder.add(
        {
          ...base,
          status: received?.status ?? null,
          responseHeaders: received?.headers ?? {},
          responseBody: received?.prefix ?? '',
          durationMs: Math.round(performance.now() - started),
          transportError: failure.reason,
        },
        scope?.checkId,
      );
      throw new TransportError(`${spec.method} ${url}: ${failure.reason}`, exchange, failure.kind, failure.reason);
    } finally {
      clearTimeout(timer);
      scope?.pending.delete(pending);
    }
  }

  get(path: string, query?: RequestSpec['query'], auth?: Credential | null): Promise<HttpResponse> {
    return this.request({ method: 'GET', path, query, auth });
  }

  post(path: string, json?: unknown, auth?: Credential | null): Promise<HttpResponse> {
    return this.request({ method: 'POST', path, json, auth });
  }

  put(path: string, json?: unknown, auth?: Credential | null): Promise<HttpResponse> {
    return this.request({ method: 'PUT', path, json, auth });
  }

  delete(path: string, auth?: Credential | null): Promise<HttpResponse> {
    return this.request({ method: 'DELETE', path, auth });
  }
}

/** What a failed request's recorded body keeps of what had arrived. */
const PREFIX_BYTES = 2048;

class DeadlineReached extends Error {
  constructor() {
    super('deadline reached');
    this.name = 'DeadlineReached';
  }
}

class BodyTooLarge extends Error {
  constructor() {
    super('body too large');
    this.name = 'BodyTooLarge';
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Reads the body up to `maxBytes`; past it (or past a Content-Length that says so) stops and throws BodyTooLarge. */
async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
  maxBytes: number,
  progress: { headers: Record<string, string>; bytes: number; prefix: string },
): Promise<string> {
  const declared = Number(progress.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    progress.bytes = declared;
    throw new BodyTooLarge();
  }
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    progress.bytes += chunk.length;
    if (progress.prefix.length < PREFIX_BYTES) progress.prefix += chunk.subarray(0, PREFIX_BYTES).toString('utf8');
    if (progress.bytes > maxBytes) {
      body.destroy();
      throw new BodyTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One sentence a person can act on, and its kind, for whatever ended a request. */
export function describeFailure(
  error: unknown,
  context: { timeoutMs: number; maxBytes: number; received?: { status: number; bytes: number } | undefined },
): { kind: TransportFailure; reason: string } {
  const { received } = context;
  if (error instanceof BodyTooLarge) {
    return {
      kind: 'too-large',
      reason: `answered ${received?.status} with a body over ${formatBytes(context.maxBytes)} (--max-response-bytes); the suite stopped reading it`,
    };
  }
  if (error instanceof DeadlineReached) {
    const phase = !received
      ? 'no response headers came'
      : received.bytes === 0
        ? `answered ${received.status} but sent none of the body`
        : `answered ${received.status} but the body was still arriving after ${received.bytes} bytes`;
    return { kind: 'timeout', reason: `no complete answer within ${formatSeconds(context.timeoutMs)} (--request-timeout): ${phase}` };
  }
  if (error instanceof ScopeAborted) return { kind: 'aborted', reason: `not completed: ${error.why}` };
  if (error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'UND_ERR_ABORTED'))
    return { kind: 'aborted', reason: 'not completed: aborted' };
  const code = (error as { code?: string } | null)?.code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'timeout', reason: `no complete answer within ${formatSeconds(context.timeoutMs)} (--request-timeout)` };
  }
  if (code === 'ECONNREFUSED')
    return { kind: 'refused', reason: `connection refused (${message.replace(/^connect ECONNREFUSED /, 'nothing listens at ')})` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'refused', reason: `the host name does not resolve (${message})` };
  if (code.startsWith('HPE_') || (error instanceof Error && error.name === 'HTTPParserError')) {
    return { kind: 'not-http', reason: `the answer is not HTTP/1.1 (${message})` };
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || /other side closed|socket hang up/i.test(message)) {
    return {
      kind: 'closed',
      reason: received
        ? `the connection was closed after ${received.bytes} bytes of the body`
        : 'the connection was closed without an answer',
    };
  }
  return { kind: 'other', reason: `${error instanceof Error ? error.name : 'error'}: ${message}` };
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
