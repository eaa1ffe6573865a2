// Test-only helpers for the webhook tests: a real HTTP receiver on 127.0.0.1 and a signature
// verifier written independently of sign.ts (node:crypto directly), so a bug in the module's
// signing cannot be hidden by the same bug in the check.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { verifyWebhookSignature } from '@stablepay/webhooks';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { webhookRoutes } from '../edge/v1/webhook-routes.ts';
import type { AppEnv } from '../edge/http/context.ts';
import { DomainRefusal } from '../core/refusals/refusals.ts';
import { ApiError } from '../edge/http/errors.ts';
import { refusalToApiError } from '../edge/http/refusal-response.ts';
import type { FetchLike } from '../core/webhooks/http-post.ts';
import type { WebhookService } from '../core/webhooks/service.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Virtual clock reading when the request arrived (for the tolerance step). */
  receivedAtMs: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Real milliseconds to wait before answering (timeout tests only). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answers request number `index` (0-based); replaceable between steps of a test. */
  reply: (request: ReceivedRequest, index: number) => Reply;
  close(): Promise<void>;
}

export async function startReceiver(now: () => number, reply: Receiver['reply'] = () => ({ status: 200 })): Promise<Receiver> {
  const receiver: Receiver = { url: '', requests: [], reply, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        receivedAtMs: now(),
      };
      const index = receiver.requests.push(request) - 1;
      const answer = receiver.reply(request, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A port nothing listens on: bind, read the port, close. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/gone`;
}

export type VerifyOutcome = { ok: true; timestamp: number } | { ok: false; step: 'format' | 'tolerance' | 'signature'; reason: string };

/** Spec §6 "Signature verification", steps 1-4, with the merchants' own verifier (@stablepay/webhooks), apart from sign.ts. */
export function verifyAsMerchant(
  header: string | undefined,
  rawBody: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): VerifyOutcome {
  const verdict = verifyWebhookSignature(rawBody, header, secret, { toleranceSeconds, now: nowSeconds * 1000 });
  return verdict.ok ? verdict : { ok: false, step: verdict.step, reason: verdict.message };
}

/** The routes mounted as the app will mount them, with a stand-in for the auth middleware. */
export function testApp(service: WebhookService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/v1/*', async (c, next) => {
    const merchantId = c.req.header('x-test-merchant');
    if (merchantId) c.set('merchantId', merchantId);
    await next();
  });
  if (service.configuration) app.route('/v1/webhooks', webhookRoutes(service.configuration));
  app.onError((err) => {
    if (err instanceof ApiError) return err.getResponse();
    if (err instanceof DomainRefusal) return refusalToApiError(err).getResponse();
    return new Response(JSON.stringify({ statusCode: 500, message: String(err), error: 'Internal Server Error' }), { status: 500 });
  });
  return app;
}

export function jsonRequest(merchantId: string | undefined, method: string, body?: unknown): RequestInit {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (merchantId) headers['x-test-merchant'] = merchantId;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return init;
}

export interface CapturedCall {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch stand-in for route and fault tests that need no sockets. */
export function capturingFetch(status: (call: CapturedCall, index: number) => number = () => 200) {
  const calls: CapturedCall[] = [];
  const fetch = (async (input: unknown, init?: { headers?: Record<string, string>; body?: unknown }) => {
    const call: CapturedCall = { url: String(input), headers: { ...(init?.headers ?? {}) }, body: String(init?.body ?? '') };
    const index = calls.push(call) - 1;
    return new Response(null, { status: status(call, index) });
  }) as unknown as FetchLike;
  return { fetch, calls };
}
