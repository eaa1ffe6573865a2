// The servers the throughput benchmark compares, each in its own process (so autocannon in the bench process
// has a core of its own): the simulator as `stablepay start` runs it, `prism mock` on our contract, and a bare
// node:http server answering the simulator's own 201 body (the ceiling of the platform).
import { join } from 'node:path';
import { spawnUntil, type Started } from './child-process.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'bin', 'stablepay.js');
const PRISM = join(ROOT, 'node_modules', '.bin', 'prism');

export interface BenchServer {
  name: string;
  url: string;
  /** The serving process (for its CPU time; the simulator's Anvil processes are not counted). */
  pid: number | undefined;
  stop(): Promise<void>;
}

const asServer = (name: string, url: string, started: Started): BenchServer => ({ name, url, pid: started.child.pid, stop: started.stop });

/** `stablepay start` (of this checkout, or of the one at `root`) on a free port with `key` as its default key and a rate limit no run can reach. */
export async function startSimulator(
  name: string,
  key: string,
  { chains, root = ROOT }: { chains: boolean; root?: string },
): Promise<BenchServer> {
  const args = [
    join(root, 'bin', 'stablepay.js'),
    'start',
    '--port',
    '0',
    '--api-key',
    key,
    '--rate-limit',
    '1000000000',
    '--no-demo-payment',
    ...(chains ? [] : ['--no-chains']),
  ];
  const started = await spawnUntil(process.execPath, args, /Base URL\s+(http:\/\/\S+)/, { cwd: root });
  return asServer(name, started.match[1] as string, started);
}

export async function startPrismMock(port: number): Promise<BenchServer> {
  const started = await spawnUntil(PRISM, ['mock', 'openapi.yaml', '-h', '127.0.0.1', '-p', String(port)], /Prism is listening/, {
    cwd: ROOT,
    timeoutMs: 120_000,
  });
  return asServer('prism mock', `http://127.0.0.1:${port}`, started);
}

// Reads the whole request body before answering, as any JSON API must.
const BARE_SERVER = `
const http = require('node:http');
const body = process.env.BENCH_BODY;
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/** A bare node:http server that answers every request with 201 and `body`. */
export async function startBareNode(body: string): Promise<BenchServer> {
  const started = await spawnUntil(process.execPath, ['-e', BARE_SERVER], /listening on (\d+)/, {
    env: { ...process.env, BENCH_BODY: body },
  });
  return asServer('bare node:http', `http://127.0.0.1:${started.match[1]}`, started);
}
