// The SQL store on a real Postgres server (a throw-away cluster from the system's binaries, test-support/
// postgres-cluster.ts): the payment store's contract as on PGlite; durable mode through --database-url brings
// everything back after a restart; the database taken down answers writes 503 with Retry-After (reads go on), the
// write that met the failure undone (in memory and never written later), and once it is back the simulator goes on
// by itself; an unreachable server at start is one sentence. Never skipped: without the binaries the cluster's start fails saying what to install.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { payment, paymentRepositoryContract } from '../../test-support/payment-repository-contract.ts';
import { type PostgresCluster, startPostgresCluster } from '../../test-support/postgres-cluster.ts';
import { startServer } from '../server.ts';
import { DatabaseOpenError } from './pglite-client.ts';
import { openPostgres } from './postgres-client.ts';
import { migrate } from './schema.ts';
import { SqlPaymentRepository } from './sql-payment-repository.ts';
import { SqlDurableState, StorageUnavailableError } from './sql-durable-state.ts';

// initdb and a server start take 5 to 30 s on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_postgres000000000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let cluster: PostgresCluster;
let repo: SqlPaymentRepository;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const db = await openPostgres(cluster.createDatabase('contract'), { poolSize: 8 });
  expect(await migrate(db)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(await migrate(db)).toEqual([]);
  repo = new SqlPaymentRepository(db);
});
afterAll(async () => {
  await repo?.close();
  cluster?.stop();
});

paymentRepositoryContract('Postgres', () => repo);

describe('durable mode on a Postgres server (--database-url)', () => {
  it('a restart on the same database brings back the payments, the key (by hash) and the default merchant', async () => {
    const url = cluster.createDatabase('restart');
    const first = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, databaseUrl: url, databasePoolSize: 4 });
    let id: string;
    try {
      expect(first.stateStore).toBe(`the database at ${url}`);
      const created = await fetch(`${first.url}/v1/payments`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ amount: '12.5', currency: 'USD', externalId: 'pg-1' }),
      });
      expect(created.status).toBe(201);
      id = ((await created.json()) as { id: string }).id;
    } finally {
      await first.close();
    }
    const second = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, databaseUrl: url });
    try {
      expect(second.simulator.restored).toMatchObject({ payments: 1, merchants: 1, keys: 1 });
      const got = await fetch(`${second.url}/v1/payments/${id}`, { headers: auth });
      expect(got.status).toBe(200);
      // Its externalId is still held.
      const again = await fetch(`${second.url}/v1/payments`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ amount: '1', currency: 'USD', externalId: 'pg-1' }),
      });
      expect(again.status).toBe(409);
    } finally {
      await second.close();
    }
  });

  it('the database down: writes answer 503 with Retry-After and are refused before they run, reads go on; once it is back, writes are taken again by themselves and nothing is lost', async () => {
    const url = cluster.createDatabase('down');
    const server = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, databaseUrl: url, databasePoolSize: 2 });
    const create = (externalId: string) =>
      fetch(`${server.url}/v1/payments`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ amount: '3', currency: 'USD', externalId }),
      });
    try {
      expect((await create('before')).status).toBe(201);
      cluster.stopServer();
      try {
        const refused = await create('while-down');
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('1');
        const body = (await refused.json()) as { message: string };
        expect(body.message).toBe('The database is unavailable; this change was not saved, retry shortly');
        // From the failure on, a write is refused before it runs: nothing of it is applied, in memory either.
        const second = await create('refused-before');
        expect(second.status).toBe(503);
        const listed = await fetch(`${server.url}/v1/payments?externalId=refused-before`, { headers: auth });
        expect(listed.status).toBe(200);
        expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
      } finally {
        cluster.startServer();
      }
      // Resumes by itself: the pool opens new connections once the probe finds the server again.
      await expect.poll(async () => (await create(`after-${Date.now()}`)).status, { timeout: 60_000, interval: 500 }).toBe(201);
      // The write answered 503 was undone: not in memory (its externalId is free again), and never written later.
      const listed = await fetch(`${server.url}/v1/payments?externalId=while-down`, { headers: auth });
      expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
      expect((await create('while-down')).status).toBe(201);
    } finally {
      await server.close();
    }
    const state = await SqlDurableState.open(await openPostgres(url, { poolSize: 1 }), 'check');
    try {
      const externalIds = [...state.records('payment').values()].map((p) => (p as { externalId: string }).externalId);
      expect(externalIds).toContain('before');
      expect(externalIds.some((e) => e.startsWith('after-'))).toBe(true);
      expect(externalIds).not.toContain('refused-before');
      // Only the second 'while-down', created once the database was back: the first was answered 503 and undone.
      expect(externalIds.filter((e) => e === 'while-down')).toHaveLength(1);
    } finally {
      await state.close();
    }
  });

  it('a commit the server refuses mid-transaction leaves nothing of it (one transaction with its deliveries)', async () => {
    const db = await openPostgres(cluster.createDatabase('atomic'), { poolSize: 2 });
    const state = await SqlDurableState.open(db, 'the test database');
    try {
      const p = payment('m-atomic', { externalId: 'x' });
      state.put('payment', p.id, p);
      await state.commit();
      // A second live holder of 'x' in the same commit as a delivery and an expiry: the index refuses, all rolls back.
      const expired = { ...p, status: 'EXPIRED' as const, updatedAt: p.updatedAt + 1 };
      const rival = payment('m-atomic', { externalId: 'x' });
      state.put('delivery', 'd-1', { id: 'd-1', status: 'pending' });
      state.put('payment', rival.id, rival);
      state.put('payment', p.id, expired);
      await expect(state.commit()).rejects.toThrow(StorageUnavailableError);
      const seen = await SqlDurableState.open({ ...db, close: async () => undefined }, 'reread');
      expect(seen.records('delivery').size).toBe(0);
      expect(seen.records('payment').get(p.id)).toEqual(p);
      expect(seen.records('payment').has(rival.id)).toBe(false);
    } finally {
      await state.close().catch(() => undefined);
    }
  });

  it('an unreachable server at start is one sentence without the password', async () => {
    const url = `postgres://someone:secret@127.0.0.1:${cluster.port + 1}/nothing`;
    const error = await startServer({ port: 0, logger: quiet, databaseUrl: url }).then(
      (s) => s.close(),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toMatch(/^cannot reach the database at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:\d+\/nothing: /);
    expect((error as Error).message).not.toContain('secret');
    expect((error as Error).message).not.toContain('\n');
  });
});
