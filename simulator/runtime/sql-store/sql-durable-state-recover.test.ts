// An embedded database that refused a commit is opened afresh by itself (sql-durable-state.ts, recover): writes are
// refused until a reopen succeeds, a reopen that fails is tried again after a growing wait, and a COMMIT reported as
// failed that reached the database all the same is read back, so memory holds what the database holds. The ground
// itself (a read-only directory, a full disk) is tested end to end in ../persistence/; here in-memory PGlite stands
// behind a client that fails on demand.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ApplyRecord } from '../../core/support/persist.ts';
import { openPglite } from './pglite-client.ts';
import type { SqlClient } from './sql-client.ts';
import { SqlDurableState, StorageUnavailableError } from './sql-durable-state.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

/**
 * `stuck`: every transaction is refused until a reopen succeeds (what PGlite does after a refused file access);
 * `reopenFailures`: how many reopens fail first (the directory still read-only); `loseCommit`: the next transaction
 * commits but reports a failure.
 */
function groundClient(base: SqlClient) {
  const ground = { stuck: false, reopenFailures: 0, loseCommit: false, reopens: [] as number[] };
  const refused = (): Error => Object.assign(new Error('could not create file "base/5/16385_fsm": File exists'), { code: '58P01' });
  const client: SqlClient = {
    ...base,
    transaction: async (work) => {
      if (ground.stuck) throw refused();
      const result = await base.transaction(work);
      if (ground.loseCommit) {
        ground.loseCommit = false;
        ground.stuck = true;
        throw refused();
      }
      return result;
    },
    reopen: async () => {
      ground.reopens.push(Date.now());
      if (ground.reopenFailures > 0) {
        ground.reopenFailures -= 1;
        throw new Error('PGlite failed to initialize properly');
      }
      ground.stuck = false;
    },
  };
  return { client, ground };
}

let base: SqlClient;
let harness: ReturnType<typeof groundClient>;
let state: SqlDurableState;
let applied: { id: string; value: unknown }[];

beforeEach(async () => {
  base = await openPglite();
  harness = groundClient(base);
  state = await SqlDurableState.open(harness.client, 'the test database');
  applied = [];
  const apply: ApplyRecord = (id, value) => applied.push({ id, value });
  state.applyWith(new Map([['thing', apply]]));
});
afterEach(async () => {
  await state.close();
});

const storedThings = async (): Promise<Record<string, unknown>> =>
  Object.fromEntries(
    (await base.query<{ id: string; body: unknown }>(`SELECT id, body FROM records WHERE kind = 'thing' ORDER BY id`)).rows.map((r) => [
      r.id,
      r.body,
    ]),
  );

it('writes are refused until the database is opened afresh; a reopen that fails is tried again after a longer wait', async () => {
  state.put('thing', 'kept', { n: 1 });
  await state.commit();
  harness.ground.stuck = true;
  harness.ground.reopenFailures = 2;
  state.put('thing', 'refused', { n: 2 });
  await expect(state.commit()).rejects.toBeInstanceOf(StorageUnavailableError);
  expect(state.records('thing').has('refused')).toBe(false);
  expect(applied).toEqual([{ id: 'refused', value: undefined }]);
  // Refused before anything runs while the database has not been opened afresh.
  await expect(state.beginWrite()).rejects.toBeInstanceOf(StorageUnavailableError);
  await expect.poll(() => state.unavailable, { timeout: 60_000, interval: 100 }).toBeUndefined();
  const [first, second, third] = harness.ground.reopens;
  expect(harness.ground.reopens).toHaveLength(3);
  // The wait doubles: 2 s after the first failed reopen, 4 s after the second (lower bounds only: load only delays).
  expect(second! - first!).toBeGreaterThanOrEqual(1900);
  expect(third! - second!).toBeGreaterThanOrEqual(3900);
  state.put('thing', 'after', { n: 3 });
  await state.commit();
  expect(await storedThings()).toEqual({ after: { n: 3 }, kept: { n: 1 } });
});

it('a COMMIT reported as failed that reached the database is read back once it is reopened: memory holds what the database holds', async () => {
  harness.ground.loseCommit = true;
  state.put('thing', 'landed', { n: 7 });
  await expect(state.commit()).rejects.toBeInstanceOf(StorageUnavailableError);
  // Undone in memory as refused, though the database has it.
  expect(state.records('thing').has('landed')).toBe(false);
  expect(await storedThings()).toEqual({ landed: { n: 7 } });
  await expect.poll(() => state.unavailable, { timeout: 60_000, interval: 100 }).toBeUndefined();
  expect(state.records('thing').get('landed')).toEqual({ n: 7 });
  expect(applied).toEqual([
    { id: 'landed', value: undefined },
    { id: 'landed', value: { n: 7 } },
  ]);
  // Later changes of the record build on the database's version.
  state.put('thing', 'landed', { n: 8 });
  await state.commit();
  expect(await storedThings()).toEqual({ landed: { n: 8 } });
});
