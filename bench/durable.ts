// Durable mode (--state-dir), measured in one run so machine load hits every row alike:
//  1. the crash run of simulator/runtime/persistence/crash.test.ts (operations, kills, lost and duplicated events; target 0);
//  2. create throughput (POST /v1/payments under autocannon) of `stablepay start --no-chains`, in memory and with
//     --state-dir, interleaved, each as a ratio to in memory;
//  3. restart time (spawn to the end of the banner) on a state dir holding 100k payments, against an empty one.
// Run: npx tsx bench/durable.ts [--seconds 5] [--rounds 2] [--payments 100000] [--crash-ops 1000]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '@stablepay/simulator';
import { openStateDir } from '@stablepay/simulator/persistence';
import { crashRun } from '@stablepay/simulator/test-support/crash-run';
import { spawnUntil } from './support/child-process.ts';
import { API_KEY, load } from './support/load.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('--seconds', 5);
const ROUNDS = arg('--rounds', 2);
const PAYMENTS = arg('--payments', 100_000);
const CRASH_OPS = arg('--crash-ops', 1000);
const CONNECTIONS = 16;
const BIN = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const BANNER = /Configure a webhook endpoint/;

function start(stateDir?: string) {
  return spawnUntil(
    process.execPath,
    [
      BIN,
      'start',
      '--no-chains',
      '--port',
      '0',
      '--quiet',
      '--no-demo-payment',
      '--api-key',
      API_KEY,
      '--rate-limit',
      '100000000',
      ...(stateDir ? ['--state-dir', stateDir] : []),
    ],
    BANNER,
    { env: { ...process.env, STABLEPAY_STATE_DIR: '', STABLEPAY_API_KEY: '' } },
  );
}

const baseOf = (output: string): string => /Base URL\s+(\S+)/.exec(output)?.[1] as string;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (n: number, d = 0): string => n.toFixed(d);

async function crashTable(): Promise<string[]> {
  const r = await crashRun({ operations: CRASH_OPS, killRate: 0.03, seed: 14 });
  return [
    '| crash run (seed 14) | value | target |',
    '|---|---|---|',
    `| operations | ${r.operations} (${r.acknowledged} answered, ${r.unacknowledged} cut off by the kill) | |`,
    `| stops of the child (restarts): SIGKILL / SIGTERM | ${r.kills - r.sigterms} / ${r.sigterms} | |`,
    `| restarts whose payments differed from the model | ${r.stateMismatches.length} | 0 |`,
    `| payments at the end / webhook events they imply | ${r.payments} / ${r.events} | |`,
    `| lost events (never delivered after the drain) | ${r.lostEvents.length} | 0 |`,
    `| duplicated events (a second attempt after a recorded success) | ${r.duplicatedEvents.length} | 0 |`,
    `| attempts in flight at a kill, sent again after the restart (same attempt) | ${r.resentInFlight} | <= kills |`,
    `| restart time, median of ${r.restartMs.length} (ms, spawn to banner) | ${fmt(median(r.restartMs))} | |`,
  ];
}

async function throughputTable(): Promise<string[]> {
  const rows: Record<'memory' | 'durable', { rps: number[]; p99: number[]; non2xx: number }> = {
    memory: { rps: [], p99: [], non2xx: 0 },
    durable: { rps: [], p99: [], non2xx: 0 },
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of ['memory', 'durable'] as const) {
      const dir = mode === 'durable' ? mkdtempSync(join(tmpdir(), 'stablepay-bench-durable-')) : undefined;
      const server = await start(dir);
      try {
        const result = await load(baseOf(server.output()), CONNECTIONS, SECONDS);
        rows[mode].rps.push(result.rps);
        rows[mode].p99.push(result.p99);
        rows[mode].non2xx += result.non2xx + result.errors;
      } finally {
        await server.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const memory = median(rows.memory.rps);
  return [
    `| create throughput (${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} interleaved) | req/s (median) | p99 ms | ratio to in memory | non-2xx |`,
    '|---|---|---|---|---|',
    ...(['memory', 'durable'] as const).map(
      (mode) =>
        `| ${mode === 'memory' ? 'in memory (default)' : '--state-dir (PGlite, one transaction per group commit)'} | ${fmt(median(rows[mode].rps))} | ${fmt(median(rows[mode].p99))} | ${fmt(median(rows[mode].rps) / memory, 2)} | ${rows[mode].non2xx} |`,
    ),
  ];
}

async function restartTable(): Promise<string[]> {
  const full = mkdtempSync(join(tmpdir(), 'stablepay-bench-100k-'));
  const empty = mkdtempSync(join(tmpdir(), 'stablepay-bench-empty-'));
  try {
    // Fill the state dir through the simulator's own stores (as POST /v1/payments would), then stop cleanly.
    const journal = await openStateDir(full);
    const sim = createSimulator({ defaultApiKey: API_KEY, durable: journal, logger: { info: () => undefined, error: () => undefined } });
    for (let i = 0; i < PAYMENTS; i += 1) {
      sim.payments.create(
        sim.defaultMerchant.id,
        {
          amount: String(1 + (i % 1000)),
          currency: 'USD',
          externalId: `r${i}`,
          expiresAt: new Date(sim.clock.now() + 7 * 86_400_000).toISOString(),
        },
        'api',
      );
      if (i % 5000 === 4999) await journal.commit();
    }
    await journal.commit();
    await sim.close();
    await journal.close();
    const size = (path: string): number =>
      statSync(path).isDirectory() ? readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0) : statSync(path).size;
    const mb = size(full) / 1e6;
    const times: Record<'empty' | 'full', number[]> = { empty: [], full: [] };
    for (let run = 0; run < 3; run += 1) {
      for (const which of ['empty', 'full'] as const) {
        const server = await start(which === 'full' ? full : empty);
        times[which].push(server.elapsedMs);
        await server.stop();
      }
    }
    const base = median(times.empty);
    return [
      '| restart (spawn to banner, median of 3, interleaved) | ms | ratio to an empty state dir |',
      '|---|---|---|',
      `| empty state dir | ${fmt(base)} | 1.00 |`,
      `| ${PAYMENTS.toLocaleString('en')} payments (${fmt(mb, 1)} MB on disk) | ${fmt(median(times.full))} | ${fmt(median(times.full) / base, 2)} |`,
    ];
  } finally {
    rmSync(full, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  }
}

const tables = [await crashTable(), await throughputTable(), await restartTable()];
console.log(tables.map((t) => t.join('\n')).join('\n\n'));
