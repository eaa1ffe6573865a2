// The merchant's side of an end-to-end run, on a free local port of its own (another origin than
// the payment page): the webhook endpoint (records deliveries and checks their signatures), a
// "thank you" page to redirect to, and a shop page that embeds the payment page in an iframe.
import { verifyWebhookSignature } from '@stablepay/webhooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  event: string;
  paymentId: string | null;
  body: { event: string; timestamp: string; data?: { paymentId?: string; externalId?: string | null } };
  signatureValid: boolean;
}

export interface MerchantSite {
  origin: string;
  webhookUrl: string;
  thanksUrl: string;
  /** A shop page embedding `paymentUrl` in an iframe. */
  embedUrl(paymentUrl: string): string;
  received: ReceivedWebhook[];
  /** The endpoint's secret, set once the webhook is configured. */
  secret: string | undefined;
  waitFor(event: string, paymentId: string, timeoutMs?: number): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/** As a merchant's receiver checks it: with the merchants' own verifier. */
function signatureValid(secret: string | undefined, header: string | undefined, raw: string): boolean {
  return secret !== undefined && verifyWebhookSignature(raw, header, secret).ok;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head><body style="font-family:system-ui;margin:2rem">${body}</body></html>`;

export async function startMerchantSite(): Promise<MerchantSite> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => boolean>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/thanks') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page('Thank you', '<h1>Thank you for your order</h1>'));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/shop') {
      const src = escapeHtml(url.searchParams.get('pay') ?? '');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          page(
            'Demo shop checkout',
            `<h1>Demo shop — checkout</h1><iframe src="${src}" title="Pay with stablecoins" style="width:560px;height:1020px;border:1px solid #ccc"></iframe>`,
          ),
        );
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/webhooks') {
      res.writeHead(404).end();
      return;
    }
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(raw) as ReceivedWebhook['body'];
        const header = req.headers['x-service-signature'];
        received.push({
          event: body.event,
          paymentId: body.data?.paymentId ?? null,
          body,
          signatureValid: signatureValid(site.secret, typeof header === 'string' ? header : undefined, raw),
        });
        for (const waiter of [...waiters]) waiter();
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const site: MerchantSite = {
    origin,
    webhookUrl: `${origin}/webhooks`,
    thanksUrl: `${origin}/thanks`,
    embedUrl: (paymentUrl) => `${origin}/shop?pay=${encodeURIComponent(paymentUrl)}`,
    received,
    secret: undefined,
    waitFor: (event, paymentId, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const hit = received.find((r) => r.event === event && r.paymentId === paymentId);
          if (!hit) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const got = received.map((r) => `${r.event}/${r.paymentId}`).join(', ') || 'nothing';
          reject(new Error(`no ${event} webhook for payment ${paymentId} within ${timeoutMs} ms; received: ${got}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return site;
}
