// `stablepay start --state-dir`: a directory it cannot use is one sentence (exit 2 for a directory of the wrong kind,
// exit 1 for a database that will not open); a restart with --api-key finds its payments and makes no second demo
// payment; the first start says it is initialising the database.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from './test-support/run-bin.ts';

const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const KEY = 'pk_statedir0000000000000000000000000000000000000000';
const SLOW = 240_000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stablepay-state-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the built command on the state dir, waits for the banner, then stops it with SIGTERM; its output and base URL. */
async function startAndStop(stateDir: string, whileUp: (base: string) => Promise<void>): Promise<string> {
  const child = spawn(
    process.execPath,
    [bin, 'start', '--no-chains', '--port', '0', '--quiet', '--api-key', KEY, '--state-dir', stateDir],
    {
      env: { ...process.env, STABLEPAY_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 120_000);
      child.stdout.on('data', () => {
        if (output.includes('Configure a webhook endpoint')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
    });
    await whileUp(/Base URL\s+(\S+)/.exec(output)?.[1] as string);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  return output;
}

const paymentCount = async (base: string): Promise<number> => {
  const res = await fetch(`${base}/v1/payments?limit=100`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { data: unknown[] }).data.length;
};

describe('stablepay start --state-dir', () => {
  it(
    'a restart with --api-key finds the demo payment of the first start and makes no other; the key shown is never whole',
    async () => {
      const stateDir = join(dir, 'state');
      const counts: number[] = [];
      const first = await startAndStop(stateDir, async (base) => {
        counts.push(await paymentCount(base));
        const keys = (await (await fetch(`${base}/v1/auth/api-keys`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as {
          data: { prefix: string }[];
        };
        expect(keys.data.map((k) => k.prefix)).toEqual([KEY.slice(0, 11)]);
      });
      expect(first).toMatch(/initialising the database in .*state\/db/);
      const second = await startAndStop(stateDir, async (base) => {
        counts.push(await paymentCount(base));
      });
      expect(second).not.toMatch(/initialising the database/);
      expect(counts).toEqual([1, 1]);
    },
    SLOW,
  );

  it('a state dir that is a file: one sentence, exit 2', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const result = await runBin(['start', '--no-chains', '--port', '0', '--no-demo-payment', '--state-dir', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`stablepay start: state dir ${file} is not a directory`);
  });

  it(
    'a state dir whose database is damaged: one sentence naming it, exit 1',
    async () => {
      mkdirSync(join(dir, 'db'));
      writeFileSync(join(dir, 'db', 'PG_VERSION'), '17\n');
      const result = await runBin(['start', '--no-chains', '--port', '0', '--no-demo-payment', '--state-dir', dir]);
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^stablepay start: cannot open the database in ${join(dir, 'db').replace(/[/.]/g, '\\$&')}: `));
    },
    SLOW,
  );
});
