// Create-payment throughput and latency of the simulator's HTTP API, measured with autocannon
// against an in-process server on a free port. Run: npx tsx bench/api.ts [--duration 5]
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { API_KEY as KEY, load, type LoadResult } from './support/load.ts';
import { startServer } from '@stablepay/simulator/server';

const CONCURRENCY = [1, 16, 64];
const durationArg = process.argv.indexOf('--duration');
const DURATION_S = durationArg > 0 ? Number(process.argv[durationArg + 1]) : 10;
const README = new URL('./README.md', import.meta.url);
const START = '<!-- bench:api:start -->';
const END = '<!-- bench:api:end -->';

interface Row extends LoadResult {
  connections: number;
}

async function measure(url: string, connections: number): Promise<Row> {
  return { connections, ...(await load(url, connections, DURATION_S)) };
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
const replaced = readme.includes(START)
  ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
  : `${readme.trimEnd()}\n\n## API: create payment\n\n${section}\n`;
writeFileSync(README, replaced);
