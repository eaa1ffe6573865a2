// Faults of the ground under --state-dir, on a small tmpfs of its own: the disk full answers writes 507 with
// Retry-After; reads go on; once space is freed the simulator takes writes by itself, and a restart has every write
// it acknowledged. (A read-only remount is refused while the database holds its files open; a read-only directory is
// tested by chmod in read-only-dir.test.ts, a database that is down in sql-store/postgres.test.ts.)
// Mounting needs root (CI runs as root); elsewhere the test is skipped with that reason.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulator } from '../app.ts';
import { openStateDir } from './index.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_groundfaults0000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const root = mkdtempSync(join(tmpdir(), 'stablepay-ground-'));
const mount = join(root, 'fs');
let mounted = false;
beforeAll(() => {
  if (process.getuid?.() !== 0) return;
  mkdirSync(mount);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mount], { stdio: 'pipe' });
    mounted = true;
  } catch {
    // No privilege to mount in this container: the test says so below.
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', mount]);
  rmSync(root, { recursive: true, force: true });
});

/** Fills the filesystem with 1 MiB files until it refuses one; returns a function that frees them. */
function fill(dir: string): () => void {
  const files: string[] = [];
  try {
    for (;;) {
      const file = join(dir, `filler-${files.length}`);
      writeFileSync(file, Buffer.alloc(1 << 20));
      files.push(file);
    }
  } catch {
    // Full.
  }
  return () => {
    for (const file of files) rmSync(file, { force: true });
  };
}

describe('--state-dir when the ground gives way', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'disk full: 507 with Retry-After, reads go on, writes resume by themselves once space is freed; a restart has every acknowledged write',
    async () => {
      expect(mounted, 'mounting a tmpfs failed: this test needs root with the right to mount').toBe(true);
      const stateDir = join(mount, 'state');
      const durable = await openStateDir(stateDir);
      const sim = createSimulator({ defaultApiKey: KEY, logger: quiet, durable });
      const create = (externalId: string) =>
        sim.app.request('/v1/payments', {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ amount: '2', currency: 'USD', externalId }),
        });
      const acknowledged: string[] = [];
      try {
        expect((await create('first')).status).toBe(201);
        acknowledged.push('first');
        const free = fill(mount);
        let full: Response | undefined;
        // The database may still have room in pages it holds: writes go on until one does not fit.
        for (let i = 0; i < 2000 && !full; i += 1) {
          const res = await create(`filling-${i}`);
          if (res.status === 201) acknowledged.push(`filling-${i}`);
          else full = res;
        }
        free();
        if (!full) throw new Error('2,000 creates never met the full disk');
        expect(full.status).toBe(507);
        expect(full.headers.get('retry-after')).toBe('1');
        expect(((await full.json()) as { message: string }).message).toMatch(/^Insufficient storage: the database is full/);
        expect((await sim.app.request('/v1/payments', { headers: auth })).status).toBe(200);
        await expect.poll(async () => (await create(`after-full-${Date.now()}`)).status, { timeout: 30_000, interval: 300 }).toBe(201);

        acknowledged.push('after-full');
      } finally {
        await sim.close();
        await durable.close();
      }
      const again = await openStateDir(stateDir);
      try {
        const stored = [...again.records('payment').values()].map((p) => (p as { externalId: string }).externalId);
        for (const externalId of acknowledged) {
          if (externalId === 'after-full') expect(stored.some((e) => e.startsWith('after-full-'))).toBe(true);
          else expect(stored).toContain(externalId);
        }
      } finally {
        await again.close();
      }
    },
  );
});
