// The SQL store on a PGlite directory survives SIGKILL: a writer is killed at random points while it inserts and
// moves payments, three times, and every write it acknowledged (printed after the await) is there after each
// restart, in the state it was acknowledged in or a later one. No write is half there: a payment's row is whole.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openPglite } from './pglite-client.ts';
import { SqlPaymentRepository } from './sql-payment-repository.ts';

const WRITER = fileURLToPath(new URL('../../test-support/pglite-writer.ts', import.meta.url));
const KILLS = 3;

/** Runs the writer until it has acknowledged `writes` more lines past "ready", then SIGKILLs it; its acknowledged lines. */
function writeThenKill(dir: string, writes: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n').slice(0, -1);
      if (!killed && lines.length > writes) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', () => {
      if (!killed) reject(new Error(`the writer stopped by itself: ${err}`));
      // Only whole lines were acknowledged; a line cut by the kill was not.
      else
        resolve(
          out
            .split('\n')
            .slice(0, -1)
            .filter((line) => line !== 'ready'),
        );
    });
  });
}

it(`acknowledged writes survive ${KILLS} SIGKILLs of a PGlite writer`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablepay-pglite-crash-'));
  try {
    const acknowledged = new Map<string, string>();
    let writes = 0;
    for (let kill = 0; kill < KILLS; kill += 1) {
      // A random point: after 20 to 80 acknowledged writes.
      for (const line of await writeThenKill(dir, 20 + Math.floor(Math.random() * 60))) {
        writes += 1;
        const [kind, id, status] = line.split(' ');
        acknowledged.set(id as string, kind === 'insert' ? (acknowledged.get(id as string) ?? 'ACTIVE') : (status as string));
      }
    }
    const db = await openPglite(dir);
    const store = new SqlPaymentRepository(db);
    try {
      let lost = 0;
      let behind = 0;
      for (const [id, status] of acknowledged) {
        const stored = await store.get(id);
        if (!stored) lost += 1;
        else if (status === 'PROCESSING' && stored.status !== 'PROCESSING') behind += 1;
      }
      // The figures, for the record: one line.
      console.info(
        `PGlite writer: ${KILLS} SIGKILLs, ${writes} acknowledged writes (${acknowledged.size} payments) checked after the restarts, ${lost} lost, ${behind} behind their acknowledged state`,
      );
      expect(acknowledged.size).toBeGreaterThanOrEqual(KILLS * 10);
      expect({ lost, behind }).toEqual({ lost: 0, behind: 0 });
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);
