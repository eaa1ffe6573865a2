// One run, one table: create-payment throughput of the simulator (without and with chains) side by side with
// `prism mock` on our contract and a bare node:http server returning the same JSON, at concurrency 1, 16 and 64;
// then start-up times of the CLI and the simulator against `node -e 0` and bare Anvil ×5.
// Run: npm run bench:throughput [-- --duration 3 --rounds 3 --starts 5 --baseline <checkout> --readme | --starts-only]
//   --baseline adds `simulator --no-chains (baseline)`: the same command run from another built checkout (e.g. the
//   commit before a change), loaded in the same rounds, and that checkout's --help and start-up rows to the start-ups;
//   --readme rewrites the throughput section of bench/README.md with the tables printed.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { freePort } from '@stablepay/conformance/test-support/prism';
import { API_KEY, createBody, load, type LoadResult } from './support/load.ts';
import { processCpuMicros } from './support/process-cpu.ts';
import { startBareNode, startPrismMock, startSimulator, type BenchServer } from './support/servers.ts';
import { measureStartTimes, type StartRow } from './support/start-times.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const DURATION_S = arg('--duration', 3);
const ROUNDS = arg('--rounds', 3);
const STARTS = arg('--starts', 5);
const WRITE_README = process.argv.includes('--readme');
// Start-ups only: prints the start-up table, leaves the README alone.
const STARTS_ONLY = process.argv.includes('--starts-only');
const BASELINE_INDEX = process.argv.indexOf('--baseline');
const BASELINE = BASELINE_INDEX > 0 ? process.argv[BASELINE_INDEX + 1] : undefined;
const CONCURRENCY = [1, 16, 64];
const README = new URL('./README.md', import.meta.url);
const START = '<!-- bench:throughput:start -->';
const END = '<!-- bench:throughput:end -->';
const log = (line: string): void => console.error(line);

interface Cell extends LoadResult {
  server: string;
  connections: number;
  /** The server process's CPU time (user + system) per request, in µs; NaN where unknown. */
  cpuPerRequestUs: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The round with the median req/s (the lower one of an even count) stands for the cell, so its latencies are from one real run. */
function medianCell(cells: Cell[]): Cell {
  const sorted = [...cells].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Cell;
}

async function sampleBody(simulatorUrl: string): Promise<string> {
  const res = await fetch(`${simulatorUrl}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: createBody(),
  });
  if (res.status !== 201) throw new Error(`the simulator answered ${res.status} to a valid create: ${await res.text()}`);
  return res.text();
}

async function measureThroughput(): Promise<Cell[]> {
  const servers: BenchServer[] = [];
  try {
    servers.push(await startSimulator('simulator --no-chains', API_KEY, { chains: false }));
    servers.push(await startSimulator('simulator with chains', API_KEY, { chains: true }));
    if (BASELINE) servers.push(await startSimulator('simulator --no-chains (baseline)', API_KEY, { chains: false, root: BASELINE }));
    servers.push(await startPrismMock(await freePort()));
    servers.push(await startBareNode(await sampleBody(servers[0]?.url as string)));
    for (const server of servers) {
      await load(server.url, 16, Math.min(DURATION_S, 3)); // warm-up (JIT, connection set-up), not reported
      log(`warmed up ${server.name}`);
    }
    const cells: Cell[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const connections of CONCURRENCY) {
        for (const server of servers) {
          const cpuBefore = processCpuMicros(server.pid);
          const result = await load(server.url, connections, DURATION_S);
          const cpuAfter = processCpuMicros(server.pid);
          const cpuPerRequestUs = cpuBefore === undefined || cpuAfter === undefined ? NaN : (cpuAfter - cpuBefore) / result.requests;
          cells.push({ server: server.name, connections, ...result, cpuPerRequestUs });
          log(
            `round ${round}/${ROUNDS} c=${connections} ${server.name}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${Math.round(cpuPerRequestUs)} µs CPU per request, non-2xx ${result.non2xx}, errors ${result.errors}`,
          );
        }
      }
    }
    return CONCURRENCY.flatMap((connections) =>
      servers.map((s) => medianCell(cells.filter((c) => c.server === s.name && c.connections === connections))),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

function throughputTable(cells: Cell[]): string {
  const lines = [
    '| c | server | req/s | p50 (ms) | p99 (ms) | × prism mock | % of bare node:http | server CPU per request (µs) | non-2xx | errors |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const connections of CONCURRENCY) {
    const row = cells.filter((c) => c.connections === connections);
    const prism = row.find((c) => c.server === 'prism mock')?.rps ?? NaN;
    const bare = row.find((c) => c.server === 'bare node:http')?.rps ?? NaN;
    for (const c of row) {
      const name = c.server.startsWith('simulator') ? `**${c.server}**` : c.server;
      lines.push(
        `| ${connections} | ${name} | ${fmt(c.rps)} | ${c.p50} | ${c.p99} | ${(c.rps / prism).toFixed(1)} | ${Math.round((100 * c.rps) / bare)} % | ${Number.isNaN(c.cpuPerRequestUs) ? '—' : Math.round(c.cpuPerRequestUs)} | ${c.non2xx} | ${c.errors} |`,
      );
    }
  }
  return lines.join('\n');
}

function startTable(rows: StartRow[]): string {
  const anvils = median(rows.find((r) => r.what.startsWith('bare Anvil'))?.samples ?? []);
  const nodeFloor = median(rows.find((r) => r.what === '`node -e 0`')?.samples ?? []);
  const lines = ['| start | median (ms) | min (ms) | max (ms) | × node -e 0 | × bare Anvil ×5 |', '|---|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    const m = median(r.samples);
    lines.push(
      `| ${r.what} | ${fmt(m)} | ${fmt(Math.min(...r.samples))} | ${fmt(Math.max(...r.samples))} | ${(m / nodeFloor).toFixed(1)} | ${(m / anvils).toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

const loadBefore = os.loadavg()[0]?.toFixed(1) ?? '?';
if (STARTS_ONLY) {
  const rows = await measureStartTimes(STARTS, log, BASELINE);
  const baselineNote = BASELINE
    ? ` --baseline <checkout>\`; (baseline): a checkout of commit ${execFileSync('git', ['-C', BASELINE, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}, built the same way`
    : '`';
  console.log(
    `Load average ${loadBefore} at start. Command: \`npm run bench:throughput -- --starts-only --starts ${STARTS}${baselineNote}.\n\n${startTable(rows)}`,
  );
  process.exit(0);
}
const cells = await measureThroughput();
const starts = await measureStartTimes(STARTS, log, BASELINE);
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, load average ${loadBefore} at start, ${new Date().toISOString().slice(0, 10)}`;
const section = [
  START,
  `Machine: ${machine}. Command: \`npm run bench:throughput -- --duration ${DURATION_S} --rounds ${ROUNDS} --starts ${STARTS}${BASELINE ? ' --baseline <checkout>' : ''}\`.`,
  ...(BASELINE
    ? [
        `\`(baseline)\`: the same command from a checkout of commit ${execFileSync('git', ['-C', BASELINE, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}, built the same way.`,
      ]
    : []),
  '',
  `\`POST /v1/payments\` with the same valid body (fresh externalId each, so every create is a real insert), autocannon in the`,
  `bench process, every server in a process of its own on loopback; ${DURATION_S} s per cell after a warm-up, ${ROUNDS} round(s)`,
  'interleaved over the servers, the round with the median req/s shown. The simulator runs as `stablepay start`',
  "(rate limit raised out of reach); prism is `prism mock openapi.yaml`; bare node:http answers the simulator's own 201 body.",
  "Server CPU per request: the serving process's user + system time over the cell divided by its requests (the",
  "simulator's Anvil processes not counted); it moves much less with the machine's load than req/s does.",
  '',
  throughputTable(cells),
  '',
  `Start-up, ${STARTS} runs each, interleaved (the simulator with its five chains and the demo payment, as a user starts it):`,
  '',
  startTable(starts),
  END,
].join('\n');
console.log(section);

if (WRITE_README) {
  const readme = readFileSync(README, 'utf8');
  const replaced = readme.includes(START)
    ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), () => section)
    : readme.replace('## API: create payment', () => `## Throughput and start-up, side by side\n\n${section}\n\n## API: create payment`);
  writeFileSync(README, replaced);
}
