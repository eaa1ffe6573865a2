// Who bundles or drops a held user operation is decided in the database (issue 28): two holders on one PGlite
// database stand for two processes. A confirm or fail may reach either; the one that turns `held` false bundles or
// drops it, whoever held the lease, and nobody can take it after that until a takeover puts it back.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openPglite } from './pglite-client.ts';
import { migrate } from './schema.ts';
import type { SqlClient } from './sql-client.ts';
import { SqlOperationLeases } from './sql-operation-leases.ts';

// Opening PGlite takes seconds on a loaded 2-core machine.
const SLOW = 60_000;
const PAYMENT = 'pay_held';
const op = { paymentId: PAYMENT, chainId: 8453, userOpHash: '0xABC', hold: true };

let db: SqlClient;
beforeAll(async () => {
  db = await openPglite();
  await migrate(db);
}, SLOW);
afterAll(async () => {
  await db.close();
});

const lease = async () =>
  (await db.query<{ owner: string; held: boolean }>('SELECT owner, held FROM user_operation_leases WHERE payment_id = $1', [PAYMENT]))
    .rows[0];
/** As if the holder stopped and its lease ran out (no test sleeps for a lease). */
const expireLease = () =>
  db.query(`UPDATE user_operation_leases SET lease_until = now() - interval '1 second' WHERE payment_id = $1`, [PAYMENT]);

let a: SqlOperationLeases;
let b: SqlOperationLeases;
beforeEach(async () => {
  await db.query('DELETE FROM user_operation_leases');
  a = new SqlOperationLeases(db, { owner: 'process-a', ms: 30_000 });
  b = new SqlOperationLeases(db, { owner: 'process-b', ms: 30_000 });
});

it('a held operation admitted by A is taken by B (one conditional update); A cannot take it back, nor can B twice', async () => {
  expect(await a.claim(op)).toBe(true);
  expect(await lease()).toEqual({ owner: 'process-a', held: true });
  expect(await b.takeHeld(PAYMENT)).toBe(true);
  expect(await lease()).toEqual({ owner: 'process-b', held: false });
  expect(await a.takeHeld(PAYMENT)).toBe(false);
  expect(await b.takeHeld(PAYMENT)).toBe(false);
  // A's renewals no longer cover it; B's do.
  expect(await a.renew()).toEqual([]);
  expect(await b.renew()).toEqual([PAYMENT]);
});

it('taken by A and B at the same instant: exactly one of them', async () => {
  expect(await a.claim(op)).toBe(true);
  const taken = await Promise.all([a.takeHeld(PAYMENT), b.takeHeld(PAYMENT), a.takeHeld(PAYMENT), b.takeHeld(PAYMENT)]);
  expect(taken.filter(Boolean)).toHaveLength(1);
});

it('an operation that is not held (the hosted page’s) is never taken: its admitting process bundles it', async () => {
  expect(await a.claim({ ...op, hold: false })).toBe(true);
  expect(await b.takeHeld(PAYMENT)).toBe(false);
  expect(await lease()).toEqual({ owner: 'process-a', held: false });
});

it('a taker that stopped before bundling: once its lease ran out the takeover puts the operation back, held, for anyone to take', async () => {
  expect(await a.claim(op)).toBe(true);
  expect(await b.takeHeld(PAYMENT)).toBe(true);
  // While B's lease runs, nobody else takes it over.
  expect(await a.claim(op)).toBe(false);
  await expireLease();
  expect(await a.claim(op)).toBe(true);
  expect(await lease()).toEqual({ owner: 'process-a', held: true });
  expect(await b.takeHeld(PAYMENT)).toBe(true);
});
