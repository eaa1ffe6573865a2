// `stablepay start --replicas 2 --database-url …`: two simulators on one database behind a round-robin balancer on
// --port. The banner names the balancer and both replicas; what is created through the balancer is served by each
// replica directly, the pay page's link is the balancer's, and SIGTERM stops everything. Usage
// errors (no database, chains of its own per replica, a bad count) exit 2 with one sentence.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '@stablepay/simulator/test-support/postgres-cluster';
import { runBin } from './test-support/run-bin.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const KEY = 'pk_replicascli000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => cluster?.stop());

it('two replicas behind the balancer: one service through it, each replica serves what the other wrote, SIGTERM stops all', async () => {
  const url = cluster.createDatabase('cli_replicas');
  const child = spawn(
    process.execPath,
    [bin, 'start', '--replicas', '2', '--database-url', url, '--no-chains', '--port', '0', '--quiet', '--api-key', KEY],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_STATE_DIR: '', STABLEPAY_DATABASE_URL: '' },
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const banner = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Configure a webhook endpoint')) resolve(output);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`exited before its banner:\n${output}`)));
  });
  try {
    const base = /Base URL\s+(\S+)/.exec(banner)?.[1] as string;
    const replicas = (/Replicas\s+2 on one database, round-robin behind the Base URL: (\S+), (\S+)/.exec(banner) ?? []).slice(1);
    expect(replicas).toHaveLength(2);
    expect(new Set([base, ...replicas]).size).toBe(3);
    expect(banner).toContain(`Control API    ${base}/control/v1`);
    // The demo payment's page is reached through the balancer.
    expect(/Payment page\s+(\S+)/.exec(banner)?.[1]?.startsWith(`${base}/`)).toBe(true);
    const created = await fetch(`${base}/v1/payments`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ amount: '5', currency: 'USD' }),
    });
    expect(created.status).toBe(201);
    const { id, paymentUrl } = (await created.json()) as { id: string; paymentUrl: string };
    expect(paymentUrl.startsWith(`${base}/`)).toBe(true);
    for (const replica of replicas) {
      const got = await fetch(`${replica}/v1/payments/${id}`, { headers: auth });
      expect(got.status).toBe(200);
    }
    const cancelled = await fetch(`${base}/v1/payments/${id}`, { method: 'DELETE', headers: auth });
    expect(cancelled.status).toBe(200);
    for (const replica of replicas)
      expect(((await (await fetch(`${replica}/v1/payments/${id}`, { headers: auth })).json()) as { status: string }).status).toBe(
        'CANCELLED',
      );
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  // Nothing left listening.
  await expect(fetch(`${/Base URL\s+(\S+)/.exec(banner)?.[1] as string}/v1/payments`)).rejects.toThrow();
});

it('usage errors: --replicas without --database-url, with chains of its own, or not a positive count exit 2 with one sentence', async () => {
  const noDatabase = await runBin(['start', '--replicas', '2', '--no-chains', '--port', '0']);
  expect(noDatabase.code).toBe(2);
  expect(noDatabase.stderr.trim()).toBe('stablepay start: --replicas needs --database-url: the replicas share its database');
  const ownChains = await runBin(['start', '--replicas', '2', '--database-url', 'postgres://u@127.0.0.1:1/x', '--port', '0'], {
    STABLEPAY_CHAINS: '',
    STABLEPAY_CHAINS_FILE: '',
  });
  expect(ownChains.code).toBe(2);
  expect(ownChains.stderr).toContain('--replicas needs --no-chains or chains they can share');
  const notACount = await runBin(['start', '--replicas', 'two', '--no-chains', '--port', '0']);
  expect(notACount.code).toBe(2);
  expect(notACount.stderr).toContain('--replicas must be a positive integer');
});
