// The suite's only way to talk HTTP to an implementation. Every call is recorded (see recorder.ts)
// with its credential reduced to a label, so reports can reproduce it without leaking the key.
import { Agent, request } from 'undici';
import type { CredentialRecord, Exchange, Recorder, Target } from './recorder.ts';
import { redactHeaders, type SecretRegistry } from './redact.ts';

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

export class TransportError extends Error {
  readonly exchange: Exchange;
  constructor(message: string, exchange: Exchange) {
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
  timeoutMs: number;
  dispatcher: Agent;
  /** Sent on every request (e.g. the control API's X-Control-Token); values are scrubbed as secrets by the caller's registry. */
  headers?: Record<string, string>;
  /** Told of every answered request, with the client that made it (e.g. to remember the payments a check created). */
  observe?: (client: HttpClient, request: { method: string; path: string; checkId: string }, response: { status: number; json: unknown }) => void;
}

/**
 * `keepAlive: false` for a target whose clock the suite moves (black-box run): after a jump the target believes its
 * idle connections timed out and closes them, and a reused one would fail with ECONNRESET.
 */
export function createDispatcher(options: { keepAlive?: boolean } = {}): Agent {
  return new Agent({ keepAliveTimeout: 10_000, connections: 64, pipelining: options.keepAlive === false ? 0 : 1 });
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
    };
    try {
      const timeout = spec.timeoutMs ?? this.options.timeoutMs;
      const response = await request(url, {
        method: spec.method as 'GET',
        headers,
        body,
        dispatcher: this.options.dispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const text = await response.body.text();
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const exchange = recorder.add({
        ...base,
        status: response.statusCode,
        responseHeaders,
        responseBody: text,
        durationMs: Math.round(performance.now() - started),
        transportError: null,
      });
      const json = parseJson(text);
      this.options.observe?.(this, { method: spec.method, path: spec.path, checkId: exchange.checkId }, { status: response.statusCode, json });
      return { status: response.statusCode, headers: responseHeaders, text, json, exchange };
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const exchange = recorder.add({
        ...base,
        status: null,
        responseHeaders: {},
        responseBody: '',
        durationMs: Math.round(performance.now() - started),
        transportError: message,
      });
      throw new TransportError(`${spec.method} ${url} failed: ${message}`, exchange);
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

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
