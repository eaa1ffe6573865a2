// Create-payment throughput and latency of the simulator's HTTP API, measured with autocannon
// against an in-process server on a free port. Run: npx tsx bench/api.ts [--duration 5]
import { readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { startServer } from '../simulator/server.ts';

const KEY = 'pk_bench000000000000000000000000000000000000000000000';
const CONCURRENCY = [1, 16, 64];
const durationArg = process.argv.indexOf('--duration');
const DURATION_S = durationArg > 0 ? Number(process.argv[durationArg + 1]) : 10;
const README = new URL('./README.md', import.meta.url);
const START = '<!-- bench:api:start -->';
const END = '<!-- bench:api:end -->';

interface Row {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(url: string, connections: number): Promise<Row> {
  const result = await autocannon({
    url: `${url}/v1/payments`,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    // A distinct externalId per request, so every create is a real insert (none is a 409).
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ amount: '100.50', currency: 'USD', title: 'bench', externalId: randomUUID() }) }) }],
  });
  if (process.env.BENCH_DEBUG) console.error(connections, result.statusCodeStats);
  return {
    connections,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function table(rows: Row[]): string {
  const lines = [
    '| connections | requests | req/s (mean) | p50 latency (ms) | p99 latency (ms) | non-2xx | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.connections} | ${r.requests} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`),
  ];
  return lines.join('\n');
}

const loadBefore = os.loadavg()[0]?.toFixed(1) ?? '?';
const server = await startServer({ port: 0, defaultApiKey: KEY, rateLimit: { limit: 1_000_000_000, windowSeconds: 60 }, control: false });
const rows: Row[] = [];
try {
  await measure(server.url, 16).catch(() => undefined); // warm-up (JIT), not reported
  for (const c of CONCURRENCY) rows.push(await measure(server.url, c));
} finally {
  await server.close();
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, ${DURATION_S} s per row after a ${DURATION_S} s warm-up, load average ${loadBefore} at start, ${new Date().toISOString().slice(0, 10)}`;
const section = [
  START,
  '`POST /v1/payments` with a valid body (validation, exact fee arithmetic, atomic externalId check, expiry timer, JSON) through',
  '`@hono/node-server` on a free port; autocannon runs in the same process, so client and server share one event loop.',
  'The rate limit is raised for the run and every request carries a fresh externalId (all 201).',
  `Machine: ${machine}.`,
  '',
  table(rows),
  END,
].join('\n');
console.log(table(rows));

let readme = '';
try {
  readme = readFileSync(README, 'utf8');
} catch {
  readme = '# Benchmarks\n\nRun with `npx tsx bench/<name>.ts`; each script rewrites its own section below.\n';
}
const replaced = readme.includes(START) ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section) : `${readme.trimEnd()}\n\n## API: create payment\n\n${section}\n`;
writeFileSync(README, replaced);
