// A --state-dir made read-only under a running simulator (an operator's chmod, a volume remounted read-only): writes
// are answered 503 with Retry-After instead of being acknowledged and lost, reads go on, and once the directory is
// writable again the same process takes writes by itself (no restart), and a restart has every write that was
// acknowledged.
//
// As root the simulator runs without the capabilities that let root write through mode bits (`setpriv` drops
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from its bounding set), so the chmod binds it while it still reads the
// code wherever the checkout is (another user such as `nobody` could not enter a CI clone made with mktemp -d, 0700). A chmod does not bite at once: PGlite keeps the files it has open, so writes go on until it must
// create a file (a table's free-space map once it grows past a few pages, a new WAL segment); the test creates until
// then. That PGlite instance never takes writes again, even once the directory is writable (`could not create file
// "base/…_fsm": File exists`: Emscripten's in-memory file tree kept an entry for the create that was refused), so the
// durable state opens the database afresh after a refused commit (sql-store/sql-durable-state.ts, recover): this
// test showed the defect, and shows it mended.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type SimulatorCli, spawnSimulatorCli } from '../../test-support/spawn-simulator-cli.ts';
import { templatePath } from '../sql-store/pglite-client.ts';

const KEY = 'pk_readonlydir00000000000000000000000000000000000000';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const asRoot = process.getuid?.() === 0;
/** As root: the command prefix that runs the simulator without root's power over mode bits. */
const withoutDacOverride = asRoot ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--'] : [];

const root = mkdtempSync(join(tmpdir(), 'stablepay-read-only-'));
const stateDir = join(root, 'state');
const cache = join(root, 'cache');
afterAll(() => {
  if (existsSync(stateDir)) execFileSync('chmod', ['-R', 'u+w', stateDir]);
  rmSync(root, { recursive: true, force: true });
});

function prepare(): void {
  chmodSync(root, 0o755);
  mkdirSync(stateDir, { mode: 0o700 });
  // The template that spares a new directory its initdb lives in our cache; the simulator gets a copy of its own.
  mkdirSync(cache, { mode: 0o755 });
  const template = templatePath();
  if (existsSync(template)) copyFileSync(template, join(cache, basename(template)));
}

const startSimulator = (): Promise<SimulatorCli> =>
  spawnSimulatorCli({
    apiKey: KEY,
    prefix: withoutDacOverride,
    args: ['--state-dir', stateDir],
    env: { HOME: root, STABLEPAY_CACHE_DIR: cache },
  });

const create = (base: string, externalId: string): Promise<Response> =>
  fetch(`${base}/v1/payments`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ amount: '2', currency: 'USD', externalId, title: 'x'.repeat(250) }),
  });

it('a state dir made read-only: 503 with Retry-After, reads go on, writes resume without a restart once writable, every acknowledged write is there after a restart', async () => {
  prepare();
  const acknowledged: string[] = [];
  let sim = await startSimulator();
  try {
    for (let i = 0; i < 5; i += 1) {
      expect((await create(sim.base, `before-${i}`)).status).toBe(201);
      acknowledged.push(`before-${i}`);
    }
    execFileSync('chmod', ['-R', 'a-w', stateDir]);
    // Writes go on while PGlite writes into files it holds open; the first one that needs a new file is refused.
    let refused: Response | undefined;
    for (let i = 0; i < 4000 && !refused; i += 8) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, j) => create(sim.base, `read-only-${i + j}`)));
      answers.forEach((res, j) => {
        if (res.status === 201) acknowledged.push(`read-only-${i + j}`);
        else refused ??= res;
      });
    }
    if (!refused) throw new Error(`4,000 creates on a read-only state dir were all acknowledged:\n${sim.output()}`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { message: string }).message).toBe(
      'The database is unavailable; this change was not saved, retry shortly',
    );
    // Writes stay refused while the directory is read-only (the reopens tried meanwhile fail); reads are answered.
    for (let i = 0; i < 3; i += 1) {
      expect((await create(sim.base, `still-read-only-${i}`)).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect((await fetch(`${sim.base}/v1/payments?limit=1`, { headers: HEADERS })).status).toBe(200);
    execFileSync('chmod', ['-R', 'u+w', stateDir]);
    // Writable again: the same process takes writes by itself (a reopen waits at most 16 s, plus the open itself).
    let attempt = 0;
    await expect
      .poll(
        async () => {
          const externalId = `writable-again-${attempt++}`;
          const res = await create(sim.base, externalId);
          if (res.status === 201) acknowledged.push(externalId);
          else expect(res.status).toBe(503);
          return res.status;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(201);
    for (let i = 0; i < 20; i += 1) {
      expect((await create(sim.base, `after-recovery-${i}`)).status).toBe(201);
      acknowledged.push(`after-recovery-${i}`);
    }
    const listed = (await (await fetch(`${sim.base}/v1/payments?externalId=after-recovery-19`, { headers: HEADERS })).json()) as {
      data: unknown[];
    };
    expect(listed.data).toHaveLength(1);
  } finally {
    execFileSync('chmod', ['-R', 'u+w', stateDir]);
    await sim.stop();
  }
  sim = await startSimulator();
  try {
    const missing: string[] = [];
    for (const externalId of acknowledged) {
      const list = (await (await fetch(`${sim.base}/v1/payments?externalId=${externalId}`, { headers: HEADERS })).json()) as {
        data: unknown[];
      };
      if (list.data.length !== 1) missing.push(externalId);
    }
    expect({ acknowledged: acknowledged.length, missing }).toEqual({ acknowledged: acknowledged.length, missing: [] });
    expect((await create(sim.base, 'after-restart')).status).toBe(201);
  } finally {
    await sim.stop();
  }
}, 600_000);
