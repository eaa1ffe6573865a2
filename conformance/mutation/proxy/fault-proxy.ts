// An outside-in fault layer: an HTTP proxy between the conformance suite and a correct service.
// It forwards every request, lets one fault (or one legal "control" variation) rewrite the
// response, and relays the service's webhook deliveries to the suite's receiver: webhook URLs the
// suite configures are swapped for relay URLs on the way in and swapped back on the way out, so the
// suite never sees the proxy. Secrets shown in responses are remembered per API key, so a fault can
// sign a delivery of its own (a late event) the way the service would.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedResponse {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  /** Authorization header of the request (identifies the merchant's key). */
  auth: string;
  requestBody: string;
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
  /** Parsed body, when JSON. Set `json` to change the body (re-serialised compactly). */
  json: unknown;
}

export interface RelayedDelivery {
  /** The suite's receiver URL the service was told. */
  url: string;
  auth: string;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

export interface ProxyApi {
  /** Sends a delivery to the receiver as is; resolves with the receiver's status. */
  forward(delivery: RelayedDelivery): Promise<number>;
  /** X-Service-Signature for `body` at `t` with the endpoint secret of `auth`, or null if unknown. */
  sign(auth: string, t: number, body: string): string | null;
  /** The receiver URL configured by `auth`, if any. */
  endpointOf(auth: string): string | undefined;
  /** Runs `task` after `ms` (cancelled when the proxy closes). */
  later(ms: number, task: () => Promise<unknown> | void): void;
  /** The time (ms) on the service's clock for the merchant of `auth`, the clock its timers and retries run on. */
  targetNow(auth: string): Promise<number>;
}

/** What a fault or control does to the traffic; both hooks are optional. */
export interface TrafficRewrite {
  response?(response: ProxiedResponse, proxy: ProxyApi): void;
  /** Decides what reaches the receiver; resolves with the status to answer the service. */
  delivery?(delivery: RelayedDelivery, proxy: ProxyApi): Promise<number>;
}

const RELAY = '/__relay/';
const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding', 'content-encoding', 'keep-alive']);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function plainHeaders(headers: IncomingMessage['headers'] | Headers): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, string | string[] | undefined][] = [];
  if (headers instanceof Headers) headers.forEach((value, name) => entries.push([name, value]));
  else entries.push(...Object.entries(headers));
  for (const [name, value] of entries)
    if (value !== undefined && !HOP.has(name.toLowerCase())) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function parse(text: string): unknown {
  try {
    return text.length ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Only the suite's own receiver (on loopback) is relayed; every other URL goes to the service as sent. */
function isReceiverUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 512) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && !url.username && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

export class FaultProxy implements ProxyApi {
  url = '';
  private readonly relayToOriginal = new Map<string, string>();
  private readonly endpointByAuth = new Map<string, string>();
  private readonly secretByAuth = new Map<string, string>();
  private readonly authByOriginal = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly tasks = new Set<Promise<unknown>>();
  private server: Server | null = null;

  constructor(
    private readonly upstream: string,
    private readonly rewrite: TrafficRewrite,
    /**
     * port: where to listen (default any free one); documentedHeadersOnly: drop the simulator's own X-Simulator-*
     * headers from responses and deliveries, so the suite sees what a real implementation sends; targetClock: how to
     * read the service's clock for a merchant (default the proxy's own clock, which is the service's when both run under
     * the suite's libfaketime, as a black-box target does).
     */
    private readonly options: { port?: number; documentedHeadersOnly?: boolean; targetClock?: (auth: string) => Promise<number> } = {},
  ) {}

  targetNow(auth: string): Promise<number> {
    return this.options.targetClock ? this.options.targetClock(auth) : Promise.resolve(Date.now());
  }

  async start(): Promise<string> {
    this.server = createServer(
      (req, res) =>
        void this.handle(req, res).catch((error: Error) => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy error: ${error.message}`);
        }),
    );
    await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.allSettled([...this.tasks]);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  endpointOf(auth: string): string | undefined {
    return this.endpointByAuth.get(auth);
  }

  sign(auth: string, t: number, body: string): string | null {
    const secret = this.secretByAuth.get(auth);
    return secret ? `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}` : null;
  }

  later(ms: number, task: () => Promise<unknown> | void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = Promise.resolve()
        .then(task)
        .catch(() => undefined);
      this.tasks.add(run);
      void run.finally(() => this.tasks.delete(run));
    }, ms);
    this.timers.add(timer);
  }

  async forward(delivery: RelayedDelivery): Promise<number> {
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 502;
    }
  }

  private documented(headers: Record<string, string>): Record<string, string> {
    if (!this.options.documentedHeadersOnly) return headers;
    return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('x-simulator-')));
  }

  private relayUrlFor(original: string, auth: string): string {
    const relay = `${this.url}${RELAY}${Buffer.from(original).toString('base64url')}`;
    this.relayToOriginal.set(relay, original);
    this.endpointByAuth.set(auth, original);
    this.authByOriginal.set(original, auth);
    return relay;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? '/', this.url);
    let body = await readBody(req);
    if (target.pathname.startsWith(RELAY)) return this.relay(target, req, body, res);
    const auth = String(req.headers.authorization ?? '');
    const method = req.method ?? 'GET';
    // The suite's receiver URL becomes a relay URL before the service sees it.
    const json = parse(body) as { url?: unknown } | undefined;
    if (/^\/v1\/webhooks\/?$/.test(target.pathname) && method !== 'GET' && json && isReceiverUrl(json.url)) {
      body = JSON.stringify({ ...json, url: this.relayUrlFor(json.url, auth) });
    }
    const upstream = await fetch(`${this.upstream}${target.pathname}${target.search}`, {
      method,
      headers: plainHeaders(req.headers),
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
      redirect: 'manual',
    });
    const raw = Buffer.from(await upstream.arrayBuffer());
    const headers = this.documented(plainHeaders(upstream.headers));
    // Only text is rewritten; the page's other assets (images, fonts) pass as bytes.
    if (!/^(application\/(json|javascript)|text\/)/i.test(headers['content-type'] ?? 'text/plain')) {
      res.writeHead(upstream.status, headers);
      res.end(raw);
      return;
    }
    let text = raw.toString('utf8');
    for (const [relay, original] of this.relayToOriginal) text = text.split(relay).join(original);
    const response: ProxiedResponse = {
      method,
      path: target.pathname,
      query: target.searchParams,
      auth,
      requestBody: body,
      status: upstream.status,
      headers,
      body: text,
      json: parse(text),
    };
    const secret = (response.json as { secret?: unknown } | undefined)?.secret;
    if (typeof secret === 'string' && target.pathname.startsWith('/v1/webhooks')) this.secretByAuth.set(auth, secret);
    const before = response.json === undefined ? undefined : JSON.stringify(response.json);
    this.rewrite.response?.(response, this);
    if (response.json !== undefined && JSON.stringify(response.json) !== before) response.body = JSON.stringify(response.json);
    res.writeHead(response.status, response.headers);
    res.end(response.body);
  }

  private async relay(target: URL, req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
    const original =
      this.relayToOriginal.get(`${this.url}${target.pathname}`) ??
      Buffer.from(target.pathname.slice(RELAY.length), 'base64url').toString('utf8');
    const delivery: RelayedDelivery = {
      url: original,
      auth: this.authByOriginal.get(original) ?? '',
      headers: this.documented(plainHeaders(req.headers)),
      body,
      json: parse(body),
    };
    const status = this.rewrite.delivery ? await this.rewrite.delivery(delivery, this) : await this.forward(delivery);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end('{"received":true}');
  }
}
