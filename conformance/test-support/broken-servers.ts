// Fourteen kinds of broken server (issue "the suite survives any server"): what an implementer's service under
// construction, a proxy in front of it or the wrong port looks like to the suite. Every kind answers every path the
// same way, so a control API at `<base>/control/v1` is broken in the same way as the service. Each is served
// in-process on a free loopback port and close() ends every connection it holds (the drips and the held ones too).
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';

export const BROKEN_KINDS = [
  'invalid-json',
  'html-page',
  'status-500',
  'no-answer',
  'headers-then-silence',
  'huge-body',
  'connection-closed',
  'redirect-loop',
  'redirect-to-closed-port',
  'slow-drip',
  'empty-200',
  'null-body',
  'tcp-close',
  'non-http-bytes',
] as const;

export type BrokenKind = (typeof BROKEN_KINDS)[number];

export const BROKEN_KIND_TEXT: Record<BrokenKind, string> = {
  'invalid-json': 'invalid JSON with a JSON content type',
  'html-page': "an HTML page (a web server's default page)",
  'status-500': '500 everywhere',
  'no-answer': 'no answer at all (the connection is held)',
  'headers-then-silence': 'headers and then silence',
  'huge-body': 'a 200 MB body',
  'connection-closed': 'connection closed on every request',
  'redirect-loop': 'a redirect loop to itself',
  'redirect-to-closed-port': 'a redirect to a closed port',
  'slow-drip': 'a body dripped one byte a second for two minutes',
  'empty-200': 'an empty 200',
  'null-body': 'a `null` JSON body',
  'tcp-close': 'a raw TCP close on accept',
  'non-http-bytes': 'raw non-HTTP bytes',
};

export interface BrokenServer {
  kind: BrokenKind;
  url: string;
  close(): Promise<void>;
}

const HUGE_BODY_BYTES = 200 * 1024 * 1024;
const DRIP_SECONDS = 120;

const NGINX_PAGE = `<!DOCTYPE html>
<html>
<head><title>Welcome to nginx!</title></head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and working. Further configuration is required.</p>
</body>
</html>
`;

/** A port nothing listens on: bound once and released. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Streams `bytes` of a JSON-looking body as fast as the client takes it, without holding it in memory. */
function streamHuge(res: ServerResponse, bytes: number): void {
  const chunk = Buffer.alloc(64 * 1024, '0,');
  let sent = 0;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const pump = (): void => {
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end('0]');
  };
  pump();
}

function handler(kind: BrokenKind, timers: Set<NodeJS.Timeout>, redirectPort: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.on('error', () => {});
    switch (kind) {
      case 'invalid-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [{"id": "a", ');
        return;
      case 'html-page':
        res.writeHead(200, { 'content-type': 'text/html' }).end(NGINX_PAGE);
        return;
      case 'status-500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'no-answer':
        return;
      case 'headers-then-silence':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        return;
      case 'huge-body':
        streamHuge(res, HUGE_BODY_BYTES);
        return;
      case 'connection-closed':
        req.socket.destroy();
        return;
      case 'redirect-loop':
        res.writeHead(302, { location: req.url ?? '/' }).end();
        return;
      case 'redirect-to-closed-port':
        res.writeHead(302, { location: `http://127.0.0.1:${redirectPort}${req.url ?? '/'}` }).end();
        return;
      case 'slow-drip': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(DRIP_SECONDS) });
        let left = DRIP_SECONDS;
        const timer = setInterval(() => {
          if (res.destroyed || left === 0) {
            clearInterval(timer);
            timers.delete(timer);
            if (!res.destroyed) res.end();
            return;
          }
          left -= 1;
          res.write(' ');
        }, 1000);
        timers.add(timer);
        return;
      }
      case 'empty-200':
        res.writeHead(200, { 'content-length': '0' }).end();
        return;
      case 'null-body':
        res.writeHead(200, { 'content-type': 'application/json' }).end('null');
        return;
      default:
        res.destroy();
    }
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

export async function startBrokenServer(kind: BrokenKind): Promise<BrokenServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let server: Server;
  if (kind === 'tcp-close') {
    server = createTcpServer((socket) => socket.destroy());
  } else if (kind === 'non-http-bytes') {
    // What answers on a port that is not HTTP (an SSH daemon, a database): bytes, then nothing more.
    server = createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.write(Buffer.from('SSH-2.0-OpenSSH_9.2p1\r\n\u0000\u0001\u00ff\u00fe binary garbage \u0007\r\n', 'latin1'));
    });
  } else {
    const redirectPort = kind === 'redirect-to-closed-port' ? await closedPort() : 0;
    const http = createHttpServer(handler(kind, timers, redirectPort));
    // Node's own server time-outs would end the held and dripping connections early; a broken server has none.
    http.requestTimeout = 0;
    http.headersTimeout = 0;
    http.keepAliveTimeout = 5_000;
    server = http;
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    kind,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
