// A round-robin HTTP balancer in front of several replicas (`stablepay start --replicas N`, and the tests): each request
// (and each WebSocket upgrade) goes to the next target in turn, so consecutive requests of one client land on
// different processes. Built on http-proxy (already in the tree through @viem/anvil): it forwards bodies as streams,
// drops hop-by-hop headers and handles upgrades, which a hand-written pipe would have to get right itself. A target
// that does not answer gives 502 with one sentence; the balancer does not retry elsewhere (a retried POST could apply
// twice), so what a client sees is what that replica did.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import httpProxy from 'http-proxy';

export interface Balancer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Where requests go, in turn; may be set after the balancer listens (a replica's --pay-url is the balancer's). */
  targets: string[];
  /** Requests sent to each target so far, by target URL. */
  readonly counts: Map<string, number>;
  close(): Promise<void>;
}

export interface BalancerOptions {
  targets?: string[];
  host?: string;
  /** 0 (the default): any free port. */
  port?: number;
}

export async function startBalancer({ targets = [], host = '127.0.0.1', port = 0 }: BalancerOptions = {}): Promise<Balancer> {
  const proxy = httpProxy.createProxyServer({ xfwd: true });
  const counts = new Map<string, number>();
  let next = 0;
  const balancer: Balancer = { url: '', targets, counts, close: async () => undefined };
  const pick = (): string | undefined => {
    const list = balancer.targets;
    if (list.length === 0) return undefined;
    const target = list[next % list.length] as string;
    next += 1;
    counts.set(target, (counts.get(target) ?? 0) + 1);
    return target;
  };
  proxy.on('error', (error, _request, response) => {
    // `response` is a socket for a failed upgrade.
    if ('writeHead' in response && !response.headersSent)
      response.writeHead(502, { 'content-type': 'text/plain' }).end(`the replica did not answer: ${error.message}\n`);
    else response.destroy();
  });
  const server: Server = createServer((request, response) => {
    const target = pick();
    if (!target) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('no replica behind the balancer yet\n');
      return;
    }
    proxy.web(request, response, { target });
  });
  server.on('upgrade', (request, socket, head) => {
    const target = pick();
    if (!target) socket.destroy();
    else proxy.ws(request, socket, head, { target });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  balancer.url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  balancer.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    proxy.close();
  };
  return balancer;
}
