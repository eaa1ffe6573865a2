// Heap per stored record, in memory mode and in durable mode (--state-dir: PGlite, whose own pages live outside the
// JavaScript heap): what the memory ceiling's weights (simulator/runtime/memory-ceiling.ts) are rounded up from.
// Run: npx tsx bench/memory-weights.ts [--count 2000] (it runs itself again under node --expose-gc). Each row makes
// `count` records of one kind through the API in a fresh in-process simulator and divides the growth of the live
// heap (after full collections) by `count`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '@stablepay/simulator';
import { openStateDir } from '@stablepay/simulator/persistence';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const countAt = process.argv.indexOf('--count');
const COUNT = countAt > 0 ? Number(process.argv[countAt + 1]) : 2000;
const KEY = 'pk_memoryweights00000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function liveHeap(): Promise<number> {
  for (let i = 0; i < 3; i += 1) {
    gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

type Row = 'payment' | 'test delivery, 1 attempt' | 'test delivery, 7 attempts' | 'API key';
const ROWS: Row[] = ['payment', 'test delivery, 1 attempt', 'test delivery, 7 attempts', 'API key'];

async function measure(mode: 'memory' | 'durable', row: Row): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'stablepay-weights-'));
  const durable = mode === 'durable' ? await openStateDir(join(dir, 'state')) : undefined;
  const sevenAttempts = row === 'test delivery, 7 attempts';
  const sim = createSimulator({
    defaultApiKey: KEY,
    logger: quiet,
    rateLimit: { limit: 1e9 },
    maxStoredMb: 1e6,
    ...(durable ? { durable } : {}),
    // Seven attempts at once (an endpoint nobody answers), or one and the next an hour away.
    webhookOptions: { retryDelaysMs: sevenAttempts ? [1, 1, 1, 1, 1, 1] : [3_600_000] },
  });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const post = (path: string, body?: unknown) =>
    sim.app.request(path, { method: 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const make = async (): Promise<Response> =>
    row === 'payment'
      ? post('/v1/payments', { amount: '1', currency: 'USD', title: 'x'.repeat(200) })
      : row === 'API key'
        ? post('/v1/auth/api-keys', { name: 'bench' })
        : post('/v1/webhooks/test');
  try {
    if (row !== 'payment') await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    for (let i = 0; i < 50; i += 1) await make(); // warm-up: code, first entries of every map
    await settle(1500);
    const before = await liveHeap();
    for (let i = 0; i < COUNT; i += 25) await Promise.all(Array.from({ length: 25 }, make));
    await settle(sevenAttempts ? 6000 : 1500);
    const after = await liveHeap();
    return (after - before) / COUNT;
  } finally {
    await sim.close();
    await durable?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const load = loadavg()[0]!.toFixed(1);
console.log(`Node ${process.version}, load average ${load} at start, ${COUNT} records a row.\n`);
console.log('| record | in memory (bytes) | durable, PGlite (bytes) | durable ÷ in memory |');
console.log('| --- | --: | --: | --: |');
for (const row of ROWS) {
  const memory = await measure('memory', row);
  const durable = await measure('durable', row);
  console.log(
    `| ${row} | ${Math.round(memory).toLocaleString('en')} | ${Math.round(durable).toLocaleString('en')} | ${(durable / memory).toFixed(2)} |`,
  );
}
process.exit(0);
