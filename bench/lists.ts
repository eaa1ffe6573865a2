// Payment lists, analytics and the CSV export as the store grows: each against an unfiltered
// page of 20, in-process (app.request), at 200k payments of one merchant spread over 60 days of
// virtual time (so the 30-day analytics and export windows hold about half).
//
// The export writes N rows, so its whole cost cannot be that of a 20-row page; it is measured
// three ways: time to first byte (the first chunk of the body) against a page, the whole export,
// and its cost per row against the cost per row of the largest list page (limit 100), which is
// what paging the same rows out through the list API would cost. Last, over HTTP on loopback:
// unfiltered pages asked one after another while one export downloads, to show whether the
// export holds the event loop.
// Run: npx tsx bench/lists.ts [--payments 200000] [--runs 30] [--no-readme]
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { serve } from '@hono/node-server';
import { createSimulator } from '@stablepay/simulator';
import { VirtualClock } from '@stablepay/simulator/clock';

const README = new URL('./README.md', import.meta.url);
const START = '<!-- bench:lists:start -->';
const END = '<!-- bench:lists:end -->';
const KEY = 'pk_benchlists0000000000000000000000000000000000000000';
const DAY = 86_400_000;

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const total = arg('payments', 200_000);
const runs = arg('runs', 30);
const loadAverage = os.loadavg()[0]!;

let wall = Date.parse('2026-01-01T00:00:00Z');
const clock = new VirtualClock({ wallNow: () => wall });
// Long expiry: the bench measures reads, not 200k expiry timers firing.
const sim = createSimulator({
  defaultApiKey: KEY,
  clock,
  paymentTtlMs: 365 * DAY,
  rateLimit: { limit: 1e9, windowSeconds: 60 },
  logger: { info() {}, error() {} },
});
const merchantId = sim.defaultMerchant.id;
const step = (60 * DAY) / total;
const started = performance.now();
const pairs = [
  [1, 'USDC'],
  [137, 'USDT'],
  [8453, 'USDC'],
  [56, 'USDT'],
] as const;
let paid = 0;
for (let i = 0; i < total; i += 1) {
  wall += step;
  // USD mostly, some EUR and JPY, so the summary has several currencies to sum.
  const body =
    i % 7 === 3
      ? { amount: String(150 + (i % 900)), currency: 'JPY' }
      : { amount: String(10 + (i % 90)), currency: i % 5 === 2 ? 'EUR' : 'USD' };
  const p = sim.payments.create(merchantId, { ...body, externalId: `ord-${i}`, title: `Order ${i}` }, 'api');
  // 1 % cancelled: a selective filter, the case a scan makes slow.
  if (i % 100 === 0) sim.payments.cancel(merchantId, p.id);
  // 10 % settled over four chain/token pairs: the volume, token and chain sums have work to do.
  else if (i % 10 === 5) {
    const [chainId, token] = pairs[Math.floor(i / 10) % pairs.length]!;
    await sim.settlement.confirm(await sim.settlement.submit(p, { chainId, token }));
    paid += 1;
  }
}
const loadSeconds = (performance.now() - started) / 1000;

interface Timing {
  median: number;
  p95: number;
  status: number;
  /** Median time to the first chunk of the body. */
  firstByte: number;
  bytes: number;
}

async function time(path: string): Promise<Timing> {
  const samples: number[] = [];
  const firsts: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < runs + 3; i += 1) {
    const t0 = performance.now();
    const res = await sim.app.request(path, { headers: { authorization: `Bearer ${KEY}` } });
    const reader = res.body!.getReader();
    let first = 0;
    bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (!first) first = performance.now() - t0;
      if (done) break;
      bytes += value.byteLength;
    }
    status = res.status;
    if (i >= 3) {
      samples.push(performance.now() - t0); // three warm-up calls
      firsts.push(first);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: median(samples), p95: sorted[Math.floor(sorted.length * 0.95)]!, status, firstByte: median(firsts), bytes };
}

const cases: [string, string][] = [
  ['unfiltered page (limit 20)', '/v1/payments'],
  ['unfiltered page (limit 100)', '/v1/payments?limit=100'],
  ['status=CANCELLED (1 %)', '/v1/payments?status=CANCELLED'],
  ['status=ACTIVE (89 %)', '/v1/payments?status=ACTIVE'],
  ['externalId=ord-12345', '/v1/payments?externalId=ord-12345'],
  ['status + externalId', '/v1/payments?status=CANCELLED&externalId=ord-100'],
  ['analytics, last 24 h', `/v1/analytics?from=${new Date(clock.now() - DAY).toISOString()}`],
  ['analytics, default 30 days', '/v1/analytics'],
  ['analytics, whole store (from 2000)', '/v1/analytics?from=2000-01-01T00:00:00Z'],
  ['CSV export (30 days)', '/v1/analytics/export'],
];
const rows: string[] = [];
const results = new Map<string, Timing>();
let base = 0;
for (const [name, path] of cases) {
  const r = await time(path);
  results.set(name, r);
  if (!base) base = r.median;
  rows.push(`| ${name} | ${r.status} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} | ${(r.median / base).toFixed(1)}x |`);
}
// The export's rows: every payment created in the last 30 days.
const exported = [...sim.payments.store.all(merchantId, { from: clock.now() - 30 * DAY, to: clock.now() })].length;

// Over HTTP: pages asked back to back while one export downloads (client and server share this process).
const server = serve({ fetch: sim.app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const auth = { authorization: `Bearer ${KEY}` };
const exportStarted = performance.now();
let exportDone = false;
const download = fetch(`${origin}/v1/analytics/export`, { headers: auth }).then(async (res) => {
  const bytes = (await res.arrayBuffer()).byteLength;
  exportDone = true;
  return { bytes, ms: performance.now() - exportStarted };
});
const during: number[] = [];
while (!exportDone) {
  const t0 = performance.now();
  await (await fetch(`${origin}/v1/payments`, { headers: auth })).arrayBuffer();
  during.push(performance.now() - t0);
}
const overHttp = await download;
during.sort((a, b) => a - b);
await new Promise((resolve) => server.close(resolve));
await sim.close();

const page = results.get('unfiltered page (limit 20)')!;
const page100 = results.get('unfiltered page (limit 100)')!;
const csv = results.get('CSV export (30 days)')!;
const perRow = (csv.median / exported) * 1000;
const perRowPage = (page100.median / 100) * 1000;
const section = [
  START,
  `${total.toLocaleString('en')} payments of one merchant over 60 days of virtual time (1 % CANCELLED, ${Math.round((paid / total) * 100)} % SUCCESSFUL over four chain/token pairs, in USD, EUR and JPY), created in ${loadSeconds.toFixed(1)} s; in-process \`app.request()\`, median and p95 of ${runs} calls after 3 warm-ups (the body read to its end).`,
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, load average ${loadAverage.toFixed(1)} at start, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| request | status | median (ms) | p95 (ms) | vs unfiltered page |',
  '|---|---:|---:|---:|---:|',
  ...rows,
  '',
  `The CSV export writes ${exported.toLocaleString('en')} rows (${(csv.bytes / 1e6).toFixed(1)} MB):`,
  '',
  '| export measure | value | reference | ratio |',
  '|---|---:|---:|---:|',
  `| time to first byte (ms) | ${csv.firstByte.toFixed(2)} | unfiltered page of 20: ${page.median.toFixed(2)} | ${(csv.firstByte / page.median).toFixed(1)}x |`,
  `| cost per row (µs) | ${perRow.toFixed(2)} | per row of a page of 100: ${perRowPage.toFixed(2)} | ${(perRow / perRowPage).toFixed(1)}x |`,
  '',
  `Over HTTP (loopback, \`@hono/node-server\`, client in the same process): the export downloaded in ${overHttp.ms.toFixed(0)} ms while ${during.length} unfiltered pages were asked one after another, median ${during[Math.floor(during.length / 2)]!.toFixed(2)} ms, max ${during.at(-1)!.toFixed(2)} ms.`,
  END,
].join('\n');
console.log(section);
if (!process.argv.includes('--no-readme')) {
  const readme = readFileSync(README, 'utf8');
  writeFileSync(
    README,
    readme.includes(START)
      ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
      : `${readme.trimEnd()}\n\n## Lists, analytics and export at scale\n\n${section}\n`,
  );
}
