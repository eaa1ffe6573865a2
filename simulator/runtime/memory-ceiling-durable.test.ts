// The memory ceiling in durable mode: each record weighs twice (its committed JSON is kept beside it), and a create
// the database refused, undone in memory, leaves the tally too (else refused writes would fill the ceiling with
// records nobody holds). In-memory PGlite behind a client that makes the database refuse each commit on demand.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from './app.ts';
import { openPglite } from './sql-store/pglite-client.ts';
import type { SqlClient } from './sql-store/sql-client.ts';
import { SqlDurableState } from './sql-store/sql-durable-state.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_ceilingdurable000000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const body = JSON.stringify({ amount: '1', currency: 'USD' });

let ground: { refuse: boolean };
let durable: SqlDurableState;
let sim: Simulator;

beforeEach(async () => {
  const base = await openPglite();
  ground = { refuse: false };
  // The handlers run and their changes are written, then the commit is refused as a constraint would (class 23: the
  // batch's own fault, so writes are not refused before they run afterwards and each create is tried and undone).
  const client: SqlClient = {
    ...base,
    transaction: (work) =>
      base.transaction(async (tx) => {
        const result = await work(tx);
        if (ground.refuse) throw Object.assign(new Error('new row violates check constraint "refused"'), { code: '23514' });
        return result;
      }),
  };
  durable = await SqlDurableState.open(client, 'the test database');
  sim = createSimulator({ defaultApiKey: KEY, logger: quiet, durable, maxStoredMb: 1 });
  // The default merchant and key are committed before the database starts refusing.
  await durable.commit();
});
afterEach(async () => {
  await sim.close();
  await durable.close();
});

const create = async (): Promise<number> => (await sim.app.request('/v1/payments', { method: 'POST', headers: auth, body })).status;

async function createsUntilRefused(): Promise<number> {
  let accepted = 0;
  for (;;) {
    const status = await create();
    if (status !== 201) {
      expect(status).toBe(507);
      return accepted;
    }
    accepted += 1;
  }
}

it('refused creates leave the tally with the memory: the ceiling is reached by acknowledged records only, at twice the weight of memory mode', async () => {
  ground.refuse = true;
  for (let i = 0; i < 200; i += 1) expect(await create()).toBe(503);
  ground.refuse = false;
  const accepted = await createsUntilRefused();
  // 1 MiB at 2 × 1.4 KB a payment: about 370 (had the 200 refused ones stayed in the tally, about 170).
  expect(accepted).toBeGreaterThan(330);
  expect(accepted).toBeLessThan(380);
  const listed = (await (await sim.app.request('/v1/payments?limit=100', { headers: auth })).json()) as { data: unknown[] };
  expect(listed.data.length).toBe(100);
});
