// Durable mode side by side, in one run so the machine's load hits every row alike:
//  1. create throughput: POST /v1/payments under autocannon against `stablepay start --no-chains` in memory (the
//     reference), with --state-dir (embedded PGlite) and with --database-url (a throw-away Postgres cluster from the
//     system's binaries), interleaved over rounds, each as a ratio to in memory measured in the same round;
//  2. restart with many payments (100k by default) on PGlite and on Postgres: spawn until the banner and the first
//     answered request, against the same engine with an empty store and against a start in memory;
//  3. two replicas on one Postgres against one: not measured until several simulators can share one database
//     (issue 28 step 3); the row says so, and `--replicas` runs the measurement once that work has landed.
// The crash figures are printed by the crash tests themselves (simulator/runtime/persistence/crash.test.ts).
//
//   npx tsx bench/durable.ts [--seconds 5] [--rounds 2] [--connections 16] [--payments 100000] [--restarts 3] [--replicas] [--readme]
//
// It spawns bin/stablepay.js (build first: npm run build). `--readme` writes the tables into bench/README.md between
// the bench:durable markers.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresCluster } from '@stablepay/simulator/test-support/postgres-cluster';
import { seedDurableStore } from '@stablepay/simulator/test-support/seed-durable-store';
import { CLEARED_STORE_ENV, simulatorCliArgs } from '@stablepay/simulator/test-support/spawn-simulator-cli';
import { spawnUntil, type Started } from './support/child-process.ts';
import { API_KEY, load, type LoadResult } from './support/load.ts';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const SECONDS = arg('--seconds', 5);
const ROUNDS = arg('--rounds', 2);
const CONNECTIONS = arg('--connections', 16);
const PAYMENTS = arg('--payments', 100_000);
const RESTARTS = arg('--restarts', 3);
const README = argv.includes('--readme');
const BANNER = /Configure a webhook endpoint/;
/** A PGlite start under load can take half a minute before any payment is read. */
const START_TIMEOUT_MS = 300_000;

type Store = { kind: 'memory' } | { kind: 'pglite'; stateDir: string } | { kind: 'postgres'; databaseUrl: string };
const storeFlags = (store: Store): string[] =>
  store.kind === 'pglite' ? ['--state-dir', store.stateDir] : store.kind === 'postgres' ? ['--database-url', store.databaseUrl] : [];

function start(store: Store): Promise<Started> {
  return spawnUntil(process.execPath, simulatorCliArgs(API_KEY, storeFlags(store)), BANNER, {
    env: { ...process.env, ...CLEARED_STORE_ENV },
    timeoutMs: START_TIMEOUT_MS,
  });
}

const baseOf = (server: Started): string => {
  const url = /Base URL\s+(\S+)/.exec(server.output())?.[1];
  if (!url) throw new Error(`no base URL in the banner:\n${server.output()}`);
  return url;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (n: number, digits = 0): string => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const sizeOf = (path: string): number =>
  statSync(path).isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : statSync(path).size;

const LABEL = {
  memory: 'in memory (default, the reference)',
  pglite: '`--state-dir` (embedded PGlite)',
  postgres: '`--database-url` (Postgres 15 server, pool 10)',
} as const;
type Kind = keyof typeof LABEL;
const KINDS: Kind[] = ['memory', 'pglite', 'postgres'];

const cluster = await startPostgresCluster();
const scratch = mkdtempSync(join(tmpdir(), 'stablepay-bench-durable-'));
let databases = 0;
/** A fresh store of the kind: a new state dir (from PGlite's template) or a new database of the cluster. */
function freshStore(kind: Kind): Store {
  databases += 1;
  if (kind === 'pglite') return { kind, stateDir: join(scratch, `state-${databases}`) };
  if (kind === 'postgres') return { kind, databaseUrl: cluster.createDatabase(`bench_${databases}`) };
  return { kind };
}

async function throughput(): Promise<string[]> {
  const rows = new Map<Kind, (LoadResult & { ratio: number })[]>(KINDS.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const measured = new Map<Kind, LoadResult>();
    for (const kind of KINDS) {
      const server = await start(freshStore(kind));
      try {
        const base = baseOf(server);
        await load(base, CONNECTIONS, 1); // warm-up (JIT, the pool's connections), not reported
        measured.set(kind, await load(base, CONNECTIONS, SECONDS));
      } finally {
        await server.stop();
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS}: ${kind} ${fmt(measured.get(kind)?.rps ?? 0)} req/s\n`);
    }
    const reference = measured.get('memory')?.rps ?? Number.NaN;
    for (const kind of KINDS) {
      const result = measured.get(kind) as LoadResult;
      rows.get(kind)?.push({ ...result, ratio: result.rps / reference });
    }
  }
  const lines = [
    `| create throughput (${CONNECTIONS} connections, ${SECONDS} s, median of ${ROUNDS} interleaved rounds) | req/s | p50 (ms) | p99 (ms) | × in memory (same round) | non-2xx + errors |`,
    '| --- | --: | --: | --: | --: | --: |',
  ];
  for (const kind of KINDS) {
    const results = rows.get(kind) ?? [];
    const row = [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)] as LoadResult;
    const failures = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    lines.push(
      `| ${LABEL[kind]} | ${fmt(row.rps)} | ${row.p50} | ${row.p99} | ${fmt(median(results.map((r) => r.ratio)), 2)} | ${failures} |`,
    );
  }
  return lines;
}

/** Spawn until the banner, then the first answered request: what a restart costs a client. */
async function timeRestart(store: Store, expectedPayments: number): Promise<{ bannerMs: number; firstAnswerMs: number }> {
  const t0 = performance.now();
  const server = await start(store);
  try {
    const bannerMs = performance.now() - t0;
    const res = await fetch(`${baseOf(server)}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${API_KEY}` } });
    await res.arrayBuffer();
    const firstAnswerMs = performance.now() - t0;
    if (res.status !== 200) throw new Error(`the first request after the restart was answered ${res.status}`);
    const restored = /restored (\d+) payments/.exec(server.output())?.[1];
    if (expectedPayments > 0 && Number(restored) !== expectedPayments)
      throw new Error(`the restart restored ${restored ?? 'no'} payments, not the ${expectedPayments} seeded:\n${server.output()}`);
    return { bannerMs, firstAnswerMs };
  } finally {
    await server.stop();
  }
}

async function restarts(): Promise<string[]> {
  const seeded = { pglite: freshStore('pglite'), postgres: freshStore('postgres') };
  const empty = { pglite: freshStore('pglite'), postgres: freshStore('postgres') };
  const seedMs = { pglite: 0, postgres: 0 };
  for (const kind of ['pglite', 'postgres'] as const) {
    const t0 = performance.now();
    const store = seeded[kind];
    await seedDurableStore(
      store.kind === 'pglite' ? { stateDir: store.stateDir } : { databaseUrl: (store as { databaseUrl: string }).databaseUrl },
      {
        payments: PAYMENTS,
        apiKey: API_KEY,
      },
    );
    seedMs[kind] = performance.now() - t0;
    process.stderr.write(`seeded ${fmt(PAYMENTS)} payments into ${kind} in ${fmt(seedMs[kind] / 1000, 1)} s\n`);
    // The empty store's first start makes it (template copy, migrations): not what a restart costs.
    const first = await start(empty[kind]);
    await first.stop();
  }
  const cases: { key: string; label: string; store: Store; payments: number }[] = [
    { key: 'memory', label: 'in memory, nothing to restore (reference)', store: { kind: 'memory' }, payments: 0 },
    { key: 'pglite-empty', label: '`--state-dir` (PGlite), empty', store: empty.pglite, payments: 0 },
    { key: 'pglite-full', label: `\`--state-dir\` (PGlite), ${fmt(PAYMENTS)} payments`, store: seeded.pglite, payments: PAYMENTS },
    { key: 'postgres-empty', label: '`--database-url` (Postgres), empty', store: empty.postgres, payments: 0 },
    { key: 'postgres-full', label: `\`--database-url\` (Postgres), ${fmt(PAYMENTS)} payments`, store: seeded.postgres, payments: PAYMENTS },
  ];
  const times = new Map<string, { bannerMs: number; firstAnswerMs: number }[]>(cases.map((c) => [c.key, []]));
  for (let run = 0; run < RESTARTS; run += 1) {
    for (const c of cases) {
      const t = await timeRestart(c.store, c.payments);
      times.get(c.key)?.push(t);
      process.stderr.write(`restart ${run + 1}/${RESTARTS}: ${c.key} ${fmt(t.firstAnswerMs)} ms\n`);
    }
  }
  const first = (key: string): number => median((times.get(key) ?? []).map((t) => t.firstAnswerMs));
  const memory = first('memory');
  const pgliteMb = sizeOf(join((seeded.pglite as { stateDir: string }).stateDir, 'db')) / 1e6;
  const lines = [
    `| restart (spawn to the first answered request, median of ${RESTARTS} interleaved) | to the banner (ms) | to the first answer (ms) | × in memory | × the same engine empty |`,
    '| --- | --: | --: | --: | --: |',
  ];
  for (const c of cases) {
    const engineEmpty = c.key.startsWith('pglite')
      ? first('pglite-empty')
      : c.key.startsWith('postgres')
        ? first('postgres-empty')
        : memory;
    lines.push(
      `| ${c.label} | ${fmt(median((times.get(c.key) ?? []).map((t) => t.bannerMs)))} | ${fmt(first(c.key))} | ${fmt(first(c.key) / memory, 1)} | ${fmt(first(c.key) / engineEmpty, 1)} |`,
    );
  }
  lines.push(
    '',
    `Seeding ${fmt(PAYMENTS)} payments (made by the simulator, bulk-inserted: simulator/test-support/seed-durable-store.ts): PGlite ${fmt(seedMs.pglite / 1000, 1)} s, Postgres ${fmt(seedMs.postgres / 1000, 1)} s; the PGlite directory holds ${fmt(pgliteMb, 0)} MB.`,
  );
  return lines;
}

/**
 * Two replicas on one Postgres against one (issue 28 step 3): one simulator and then two on one fresh database each,
 * the same connections split over them, the sum of their req/s as a ratio to the one. On a 2-core machine the two
 * processes and Postgres share the same cores, so this measures what sharing costs, not what a second machine adds.
 */
async function replicas(): Promise<string[]> {
  const header = [
    `| two replicas on one Postgres against one (${CONNECTIONS} connections in all) | req/s | × one replica (same run) |`,
    '| --- | --: | --: |',
  ];
  const one = await start(freshStore('postgres'));
  let single: LoadResult;
  try {
    await load(baseOf(one), CONNECTIONS, 1);
    single = await load(baseOf(one), CONNECTIONS, SECONDS);
  } finally {
    await one.stop();
  }
  const shared = freshStore('postgres');
  const pair = [await start(shared), await start(shared)];
  let both: LoadResult[];
  try {
    await Promise.all(pair.map((s) => load(baseOf(s), CONNECTIONS / 2, 1)));
    both = await Promise.all(pair.map((s) => load(baseOf(s), CONNECTIONS / 2, SECONDS)));
  } finally {
    await Promise.all(pair.map((s) => s.stop()));
  }
  const sum = both.reduce((total, r) => total + r.rps, 0);
  return [...header, `| one replica | ${fmt(single.rps)} | 1.00 |`, `| two replicas (sum) | ${fmt(sum)} | ${fmt(sum / single.rps, 2)} |`];
}

const loadAtStart = loadavg()[0]?.toFixed(1);
const startedAt = new Date();
let tables: string[][];
try {
  tables = [await throughput(), await restarts(), await replicas()];
} finally {
  cluster.stop();
  rmSync(scratch, { recursive: true, force: true });
}
const command = `npx tsx bench/durable.ts ${argv.filter((a) => a !== '--readme').join(' ')}`.trim();
const header = `Command: \`${command}\`. Machine: ${availableParallelism()} cores, Node ${process.version}, load average ${loadAtStart} at start and ${loadavg()[0]?.toFixed(1)} at the end, ${startedAt.toISOString().slice(0, 10)}.`;
const section = `${header}\n\n${tables.map((t) => t.join('\n')).join('\n\n')}\n`;
process.stdout.write(section);

if (README) {
  const path = fileURLToPath(new URL('./README.md', import.meta.url));
  const text = readFileSync(path, 'utf8');
  const startMarker = '<!-- bench:durable:start -->';
  const endMarker = '<!-- bench:durable:end -->';
  if (!text.includes(startMarker) || !text.includes(endMarker)) throw new Error(`bench/README.md has no ${startMarker} … ${endMarker}`);
  writeFileSync(path, `${text.slice(0, text.indexOf(startMarker) + startMarker.length)}\n${section}${text.slice(text.indexOf(endMarker))}`);
}
