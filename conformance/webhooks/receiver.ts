// The suite's own webhook receiver (node:http). Each check asks for an endpoint with its own path
// and behaviour (answer 2xx, answer 500, or answer too slowly), so deliveries never mix between checks; or, on a path
// shared by the whole run (run-endpoint.ts), the deliveries are routed to the check that owns their payment.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { DEFAULTS } from '../defaults.ts';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** The receiver's id for this delivery (`delivery-<n>` in arrival order), named by findings and replay-delivery. */
  id: string;
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body's exact bytes (rawBody is their UTF-8 reading). */
  rawBytes: Buffer;
  json: unknown;
  /** Wall-clock receipt time in ms. */
  receivedAt: number;
  /** Status the receiver answered with. */
  answeredStatus: number;
  /** A held answer (EndpointBehaviour.delayMs) the sender did not wait for: ms from receipt to its hanging up. */
  senderHungUpAfterMs?: number;
}

export interface EndpointBehaviour {
  status: number;
  /** Real-time delay before answering (to exceed the implementation's time-out). */
  delayMs?: number;
}

/** The slow answers in progress and past (EndpointBehaviour.delayMs), by the endpoint that held them. */
export class HoldLedger {
  private readonly holds: { by: ReceiverEndpoint | undefined; start: number; end?: number }[] = [];

  begin(by: ReceiverEndpoint | undefined): () => void {
    const hold: { by: ReceiverEndpoint | undefined; start: number; end?: number } = { by, start: Date.now() };
    this.holds.push(hold);
    return () => void (hold.end ??= Date.now());
  }

  /**
   * How long since `since` an endpoint other than `mine` held an answer back. On a path the run shares, an
   * implementation may deliver to one endpoint one attempt at a time (the spec does not say it may not): another
   * check's slow receiver then delays this one's deliveries, so its waits do not count that time.
   */
  heldByOthers(since: number, mine: ReceiverEndpoint): number {
    const now = Date.now();
    let held = 0;
    for (const hold of this.holds) if (hold.by !== mine) held += Math.max(0, (hold.end ?? now) - Math.max(hold.start, since));
    return held;
  }
}

export class ReceiverEndpoint {
  readonly deliveries: Delivery[] = [];
  behaviour: EndpointBehaviour;
  private waiters: (() => void)[] = [];

  constructor(
    readonly path: string,
    readonly url: string,
    behaviour: EndpointBehaviour,
    /** Waits are extended by other endpoints' slow answers (HoldLedger). */
    private readonly holds?: HoldLedger,
  ) {
    this.behaviour = behaviour;
  }

  /** Slow answers (EndpointBehaviour.delayMs) not yet given, by delivery id: settled once given (or the receiver closed). */
  private readonly held = new Map<string, Promise<void>>();

  /** Held answers whose sender may still hang up first: settled when it does, or when the answer is given. */
  private readonly dropped = new Map<string, Promise<void>>();

  /** Marks a delivery as held back until `given` settles (the receiver's own bookkeeping); `hungUp` settles first when the sender stops waiting. */
  holding(deliveryId: string, given: Promise<void>, hungUp?: Promise<void>): void {
    this.held.set(deliveryId, given);
    void given.finally(() => this.held.delete(deliveryId));
    if (hungUp) {
      const either = Promise.race([given, hungUp]);
      this.dropped.set(deliveryId, either);
      void given.finally(() => this.dropped.delete(deliveryId));
    }
  }

  /**
   * Resolves once the sender no longer waits for this delivery's held answer: it hung up (an implementation's time-out
   * closing the connection), or the answer was given. Unlike `answered`, the implementation may still be recording
   * the attempt's outcome when this resolves.
   */
  givenOrHungUp(deliveryId: string): Promise<void> {
    return this.dropped.get(deliveryId) ?? this.answered(deliveryId);
  }

  /**
   * Resolves once the receiver has given its (late) answer to this delivery, whether or not the sender still listened;
   * at once if it was not held.
   */
  answered(deliveryId: string): Promise<void> {
    return this.held.get(deliveryId) ?? Promise.resolve();
  }

  record(delivery: Delivery): void {
    this.deliveries.push(delivery);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves with the deliveries once `predicate` holds, or with what arrived when time runs out. */
  async waitFor(predicate: (deliveries: Delivery[]) => boolean, timeoutMs: number): Promise<Delivery[]> {
    const start = Date.now();
    while (!predicate(this.deliveries)) {
      const remaining = start + timeoutMs + (this.holds?.heldByOthers(start, this) ?? 0) - Date.now();
      if (remaining <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return [...this.deliveries];
  }

  /** Waits a short quiet period, so "nothing more arrived" is observed, not assumed. */
  async settle(quietMs: number): Promise<Delivery[]> {
    let seen = -1;
    while (seen !== this.deliveries.length) {
      seen = this.deliveries.length;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
    }
    return [...this.deliveries];
  }
}

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Base URL the implementation reaches the receiver at; defaults to the listen address. */
  publicUrl?: string;
  /** A delivery body over this many bytes is answered 413 and not kept (default: --max-response-bytes's default). */
  maxBodyBytes?: number;
}

/** A path the run shares: the endpoint a delivery belongs to, by its body (undefined: kept unrouted, answered 200). */
export type DeliveryRoute = (json: unknown) => ReceiverEndpoint | undefined;

export class WebhookReceiver {
  private readonly endpoints = new Map<string, ReceiverEndpoint>();
  private readonly routes = new Map<string, DeliveryRoute>();
  /** The endpoints of shared paths (not found by path): every delivery of the run is in one of these or unrouted. */
  private readonly routedEndpoints: ReceiverEndpoint[] = [];
  /** Slow answers still to give, with what settles their `answered` promise. */
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  readonly holds = new HoldLedger();
  readonly unrouted: Delivery[] = [];
  publicUrl = '';
  private received = 0;

  private constructor(private readonly server: Server) {}

  static async start(options: ReceiverOptions): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const maxBytes = options.maxBodyBytes ?? DEFAULTS.maxResponseBytes;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // A delivery larger than the suite reads is refused, not buffered: the implementation cannot grow the suite.
        if (bytes > maxBytes) {
          res.writeHead(413, { connection: 'close' }).end();
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => receiver?.handle(req.url ?? '/', req.method ?? 'GET', req.headers, Buffer.concat(chunks), res));
    });
    receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
    const hostPart = host.includes(':') ? `[${host}]` : host;
    receiver.publicUrl = (options.publicUrl ?? `http://${hostPart}:${address.port}`).replace(/\/+$/, '');
    return receiver;
  }

  /** Every delivery this receiver got during the run, routed or not, in arrival order. */
  all(): Delivery[] {
    return [...[...this.endpoints.values(), ...this.routedEndpoints].flatMap((e) => e.deliveries), ...this.unrouted].sort(
      (a, b) => a.receivedAt - b.receivedAt,
    );
  }

  /** Serves `path` for the whole run: each delivery goes to the endpoint `route` names by its body. */
  route(path: string, route: DeliveryRoute): void {
    this.routes.set(path, route);
  }

  /** An endpoint on a shared path (route()), with the run's hold ledger; `claim` moves earlier unrouted deliveries to it. */
  routedEndpoint(path: string, behaviour: EndpointBehaviour): ReceiverEndpoint {
    const endpoint = new ReceiverEndpoint(path, `${this.publicUrl}${path}`, behaviour, this.holds);
    this.routedEndpoints.push(endpoint);
    return endpoint;
  }

  /** Moves the unrouted deliveries `belongs` picks to `endpoint` (they arrived before their owner was known). */
  claim(belongs: (delivery: Delivery) => boolean, endpoint: ReceiverEndpoint): void {
    for (let i = 0; i < this.unrouted.length; i++) {
      const delivery = this.unrouted[i]!;
      if (!belongs(delivery)) continue;
      this.unrouted.splice(i--, 1);
      endpoint.record(delivery);
    }
  }

  endpoint(behaviour: EndpointBehaviour = { status: 200 }, name = 'hook'): ReceiverEndpoint {
    const path = `/${name}/${randomUUID()}`;
    const endpoint = new ReceiverEndpoint(path, `${this.publicUrl}${path}`, behaviour, this.holds);
    this.endpoints.set(path, endpoint);
    return endpoint;
  }

  private handle(url: string, method: string, headers: IncomingHttpHeaders, body: Buffer, res: import('node:http').ServerResponse): void {
    const path = url.split('?')[0] ?? '/';
    const rawBody = body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      json = undefined;
    }
    const route = this.routes.get(path);
    const endpoint = this.endpoints.get(path) ?? route?.(json);
    const behaviour = endpoint?.behaviour ?? { status: route ? 200 : 404 };
    const delivery: Delivery = {
      id: `delivery-${++this.received}`,
      path,
      method,
      headers,
      rawBody,
      rawBytes: body,
      json,
      receivedAt: Date.now(),
      answeredStatus: behaviour.status,
    };
    const answer = () => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(behaviour.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: true }));
    };
    if (behaviour.delayMs) {
      const released = this.holds.begin(endpoint);
      let given!: () => void;
      let hungUp!: () => void;
      endpoint?.holding(delivery.id, new Promise<void>((resolve) => (given = resolve)), new Promise<void>((resolve) => (hungUp = resolve)));
      // The sender closing the connection before the held answer: it stopped waiting (its time-out). The answer is
      // still given at its time (`answered`); a check that only needs the sender to have given up reads `givenOrHungUp`.
      res.once('close', () => {
        if (res.writableEnded) return;
        delivery.senderHungUpAfterMs = Date.now() - delivery.receivedAt;
        hungUp();
      });
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        released();
        answer();
        given();
      }, behaviour.delayMs);
      this.pending.set(timer, given);
    }
    if (endpoint) endpoint.record(delivery);
    else this.unrouted.push(delivery);
    if (!behaviour.delayMs) answer();
  }

  async close(): Promise<void> {
    for (const [timer, given] of this.pending) {
      clearTimeout(timer);
      given();
    }
    this.pending.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
