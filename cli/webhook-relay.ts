// The local relay behind `stablepay listen`: receives the simulator's deliveries and forwards each
// one, headers and raw body unchanged, to the merchant's URL. It answers the simulator with the
// merchant's status (a refused or failed forward is a 502), so the simulator retries exactly as it
// would retry the merchant's own endpoint, and the merchant's answer counts within the spec's 10 s.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the relay saw of one delivery, for the line `listen` prints. */
export interface RelayedDelivery {
  event: string;
  subject: string | null;
  /** The merchant's status, or null when the forward failed. */
  status: number | null;
  error: string | null;
  ms: number;
  /** The delivery's id header (X-Service-Delivery-Id), the same on each retry of one delivery. */
  deliveryId: string | null;
}

export interface RelayOptions {
  forwardTo: string;
  onDelivery: (delivery: RelayedDelivery) => void;
  /** Below the simulator's 10 s limit, so the relay can still answer with what happened. */
  timeoutMs?: number;
}

/** Hop-by-hop headers and those fetch sets itself; everything else is forwarded as received. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export interface Relay {
  url: string;
  close(): Promise<void>;
}

export async function startRelay(options: RelayOptions, host = '127.0.0.1', port = 0): Promise<Relay> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      void relay(raw, req.headers, options).then((outcome) => {
        options.onDelivery(outcome);
        res.writeHead(outcome.status ?? 502, { 'content-type': 'text/plain' }).end(outcome.error ?? '');
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function relay(raw: Buffer, headers: IncomingHttpHeaders, options: RelayOptions): Promise<RelayedDelivery> {
  let event = '?';
  let subject: string | null = null;
  try {
    const body = JSON.parse(raw.toString('utf8')) as { event?: string; data?: { paymentId?: string; payoutId?: string } };
    event = body.event ?? '?';
    subject = body.data?.paymentId ? `payment ${body.data.paymentId}` : body.data?.payoutId ? `payout ${body.data.payoutId}` : null;
  } catch {
    // Not ours to judge: forward the bytes as they came.
  }
  const idHeader = headers['x-service-delivery-id'];
  const deliveryId = (Array.isArray(idHeader) ? idHeader[0] : idHeader) ?? null;
  const forwardHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) forwardHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const started = performance.now();
  try {
    const res = await fetch(options.forwardTo, {
      method: 'POST',
      headers: forwardHeaders,
      body: new Uint8Array(raw),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 9_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    const ms = Math.round(performance.now() - started);
    return {
      event,
      subject,
      status: res.status,
      error: res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`,
      ms,
      deliveryId,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? 'timeout' : (cause?.code ?? cause?.message ?? (error as Error).message);
    return {
      event,
      subject,
      status: null,
      error: `forward failed: ${reason}`,
      ms: Math.round(performance.now() - started),
      deliveryId,
    };
  }
}
