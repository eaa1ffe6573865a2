// What durable mode's database guarantees, on in-memory PGlite behind a client that can be made to fail: one
// transaction per commit (a request's changes and its webhook deliveries land together or not at all), a refused
// commit undone in memory (every record back to its committed value) and never written later, a payment never moved
// back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openPglite } from './pglite-client.ts';
import type { SqlClient, SqlQueries } from './sql-client.ts';
import { SqlDurableState, StorageUnavailableError } from './sql-durable-state.ts';

// Each open of a PGlite database takes seconds on a loaded 2-core machine (a test opens it up to three times).
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const SLOW = 240_000;

/** A client whose writes fail while `down` is set: at once, or after `failAfter` statements of a transaction. */
function faultyClient(base: SqlClient) {
  const ground = { down: false, full: false, failAfter: 0 };
  const fail = (): never => {
    const error = new Error(ground.full ? 'could not extend file: No space left on device' : 'terminating connection: the server is down');
    throw Object.assign(error, { code: ground.full ? '53100' : '57P01' });
  };
  const client: SqlClient = {
    ...base,
    transaction: (work) =>
      base.transaction(async (tx) => {
        let statements = 0;
        const guarded: SqlQueries = {
          query: async (sql, params) => {
            if (ground.down && statements >= ground.failAfter) fail();
            statements += 1;
            return tx.query(sql, params);
          },
          exec: (sql) => tx.exec(sql),
        };
        return work(guarded as SqlQueries);
      }),
    close: () => base.close(),
  };
  return { client, ground };
}

let db: SqlClient;
let faulty: ReturnType<typeof faultyClient>;
let state: SqlDurableState;

beforeEach(async () => {
  db = await openPglite();
  faulty = faultyClient(db);
  state = await SqlDurableState.open(faulty.client, 'the test database');
}, SLOW);
afterEach(async () => {
  await state.close();
});

const payment = (id: string, status: string, externalId: string | null = null) => ({
  id,
  merchantId: 'm1',
  status,
  externalId,
  createdAt: 1,
  updatedAt: status === 'ACTIVE' ? 1 : 2,
});

async function reread(): Promise<SqlDurableState> {
  // The same database, read afresh (as a restart does).
  return SqlDurableState.open({ ...db, close: async () => undefined }, 'the test database');
}

describe('SqlDurableState', () => {
  it('commit() resolves once the records are committed; a change made while a commit is in flight follows on its own', async () => {
    state.put('thing', 'a', { n: 1 });
    const first = state.commit();
    state.put('thing', 'b', { n: 2 });
    await first;
    expect((await reread()).records('thing').get('a')).toEqual({ n: 1 });
    // Nobody commits again: the next tick does.
    await expect.poll(async () => (await reread()).records('thing').get('b'), { timeout: 5000 }).toEqual({ n: 2 });
    state.put('thing', 'a', { n: 3 });
    state.delete('thing', 'b');
    await state.commit();
    expect([...(await reread()).records('thing')]).toEqual([['a', { n: 3 }]]);
  });

  it('a commit is all or nothing: failing after any number of its statements leaves none of it, undone in memory, never written later', async () => {
    const applied: [string, string, unknown][] = [];
    const recorder = (kind: string) => (id: string, value: unknown) => void applied.push([kind, id, value]);
    state.applyWith(new Map(['payment', 'delivery', 'thing'].map((kind) => [kind, recorder(kind)])));
    const batch = () => {
      state.put('payment', 'p1', payment('p1', 'EXPIRED'));
      state.put('delivery', 'd1', { id: 'd1', status: 'pending', event: 'payment.expired', paymentId: 'p1' });
      state.put('thing', 't1', { n: 1 });
    };
    state.put('payment', 'p1', payment('p1', 'ACTIVE'));
    await state.commit();
    for (let failAfter = 0; failAfter < 3; failAfter += 1) {
      Object.assign(faulty.ground, { down: true, failAfter });
      applied.length = 0;
      batch();
      await expect(state.commit()).rejects.toThrow(StorageUnavailableError);
      // Each record of the batch goes back to what the database has: p1 ACTIVE, d1 and t1 gone.
      expect(applied).toEqual([
        ['payment', 'p1', expect.objectContaining({ status: 'ACTIVE' })],
        ['delivery', 'd1', undefined],
        ['thing', 't1', undefined],
      ]);
      const seen = await reread();
      expect(seen.records('payment').get('p1')).toMatchObject({ status: 'ACTIVE' });
      expect(seen.records('delivery').size).toBe(0);
      expect(seen.records('thing').size).toBe(0);
    }
    faulty.ground.down = false;
    // Nothing is held for later: the ground back, the database still has none of the refused batch.
    await state.commit();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const seen = await reread();
    expect(seen.records('payment').get('p1')).toMatchObject({ status: 'ACTIVE' });
    expect(seen.records('delivery').size).toBe(0);
    expect(seen.records('thing').size).toBe(0);
  });

  it('a request is refused at its commit when an undo took a record it reported, not for an undo of other records', async () => {
    // Its change undone by the refused batch: refused, though the database is back by its commit.
    faulty.ground.down = true;
    const [, taken] = state.trackWrites(() => state.put('thing', 'a', { n: 1 }));
    await expect(state.commit()).rejects.toThrow(StorageUnavailableError);
    faulty.ground.down = false;
    await expect(state.commit(taken)).rejects.toThrow(StorageUnavailableError);
    // Its change committed before another record's undo (its own afterwards: the report after an await counts too).
    const [handled, spared] = state.trackWrites(async () => {
      await Promise.resolve();
      state.put('thing', 'b', { n: 1 });
    });
    await handled;
    await state.commit();
    faulty.ground.down = true;
    state.put('thing', 'c', { n: 1 });
    await expect(state.commit()).rejects.toThrow(StorageUnavailableError);
    faulty.ground.down = false;
    await state.commit(spared);
    // One that starts after an undo is not refused for it.
    const [, after] = state.trackWrites(() => state.put('thing', 'a', { n: 2 }));
    await state.commit(after);
    const seen = await reread();
    expect(seen.records('thing').get('a')).toEqual({ n: 2 });
    expect(seen.records('thing').get('b')).toEqual({ n: 1 });
    expect(seen.records('thing').has('c')).toBe(false);
  });

  it('a full disk is told apart (507) from a database that is down (503)', async () => {
    Object.assign(faulty.ground, { down: true, full: true });
    state.put('thing', 'a', { n: 1 });
    const full = await state.commit().catch((e: unknown) => e);
    expect(full).toBeInstanceOf(StorageUnavailableError);
    expect((full as StorageUnavailableError).full).toBe(true);
    faulty.ground.full = false;
    state.put('thing', 'a', { n: 1 });
    const down = await state.commit().catch((e: unknown) => e);
    expect((down as StorageUnavailableError).full).toBe(false);
    expect((down as Error).message).toMatch(/^the test database did not take the write: terminating connection/);
  });

  it('the database keeps a payment from moving back, and one live holder per externalId', async () => {
    state.put('payment', 'p1', payment('p1', 'SUCCESSFUL', 'order-1'));
    await state.commit();
    state.put('payment', 'p1', payment('p1', 'ACTIVE', 'order-1'));
    await expect(state.commit()).rejects.toThrow(/payment p1 would move back to ACTIVE/);
    state.put('payment', 'p1', payment('p1', 'SUCCESSFUL', 'order-1'));
    await state.commit();
    state.put('payment', 'p2', payment('p2', 'ACTIVE', 'order-1'));
    await expect(state.commit()).rejects.toThrow(/payments_live_external_id/);
    state.delete('payment', 'p2');
    await state.commit();
    expect([...(await reread()).records('payment').keys()]).toEqual(['p1']);
  });

  it('a NUL inside a string (which Postgres text cannot hold) is stored as U+FFFD instead of failing every later commit', async () => {
    state.put('thing', 'a', { title: 'a\u0000b', path: '\\u0000' });
    await state.commit();
    expect((await reread()).records('thing').get('a')).toEqual({ title: 'a\ufffdb', path: '\\u0000' });
  });
});
