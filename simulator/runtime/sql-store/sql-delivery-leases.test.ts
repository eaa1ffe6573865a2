// The delivery lease decides who sends an attempt, in the database (issue 28): two holders on one PGlite database
// stand for two processes. Each case failed before the fence: a claim succeeded for an attempt the stored delivery
// already held, and a slow attempt's lease ran out under its live sender so the other process sent it again.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openPglite } from './pglite-client.ts';
import { migrate } from './schema.ts';
import type { SqlClient } from './sql-client.ts';
import { SqlDeliveryLeases } from './sql-delivery-leases.ts';

// Opening PGlite takes seconds on a loaded 2-core machine.
const SLOW = 60_000;
const ID = 'd-1';

let db: SqlClient;
beforeAll(async () => {
  db = await openPglite();
  await migrate(db);
}, SLOW);
afterAll(async () => {
  await db.close();
});

/** The stored delivery: pending, with attempts numbered `made`, leased to nobody. */
async function storeDelivery(made: number[]): Promise<void> {
  const body = JSON.stringify({ id: ID, status: 'pending', attempts: made.map((number) => ({ number })) });
  await db.query(
    `INSERT INTO webhook_deliveries (id, status, body) VALUES ($1, 'pending', $2::jsonb)
     ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, status = 'pending', lease_owner = NULL, lease_until = NULL`,
    [ID, body],
  );
}

/** As if the holder's lease ran out while it waited (no test sleeps for a lease). */
const expireLease = () => db.query(`UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE id = $1`, [ID]);

let a: SqlDeliveryLeases;
let b: SqlDeliveryLeases;
beforeEach(async () => {
  a = new SqlDeliveryLeases(db, { owner: 'process-a', ms: 30_000 });
  b = new SqlDeliveryLeases(db, { owner: 'process-b', ms: 30_000 });
  await storeDelivery([1, 2]);
});

it('claims the next attempt, but never one the stored delivery already holds, whoever holds the lease', async () => {
  expect(await a.claim(ID, 2)).toBe(false);
  expect(await a.claim(ID, 1)).toBe(false);
  expect(await a.claim(ID, 3)).toBe(true);
  // Held by A unexpired: not B's.
  expect(await b.claim(ID, 3)).toBe(false);
  // A made attempt 3 and committed it; its lease then ran out. B's copy is stale (it would send 3 again): refused.
  await db.query(`UPDATE webhook_deliveries SET body = jsonb_set(body, '{attempts}', body->'attempts' || '[{"number":3}]') WHERE id = $1`, [
    ID,
  ]);
  await expireLease();
  expect(await b.claim(ID, 3)).toBe(false);
  expect(await b.claim(ID, 4)).toBe(true);
  // Nor by its own holder twice.
  await db.query(`UPDATE webhook_deliveries SET body = jsonb_set(body, '{attempts}', body->'attempts' || '[{"number":4}]') WHERE id = $1`, [
    ID,
  ]);
  expect(await b.claim(ID, 4)).toBe(false);
});

it('keeps a claimed attempt leased until its outcome is stored, then lets it go', async () => {
  expect(await a.claim(ID, 3)).toBe(true);
  // The attempt is slow (a receiver at its timeout, a loaded machine): the lease would run out under a live sender.
  await expireLease();
  expect(await a.renewClaimed()).toBe(1);
  expect(await b.claim(ID, 3)).toBe(false);
  expect((await b.expired()).includes(ID)).toBe(false);
  // The outcome is committed: nothing more to renew; once the lease runs out, the delivery is free for a takeover.
  await db.query(`UPDATE webhook_deliveries SET body = jsonb_set(body, '{attempts}', body->'attempts' || '[{"number":3}]') WHERE id = $1`, [
    ID,
  ]);
  expect(await a.renewClaimed()).toBe(0);
  await expireLease();
  expect(await a.renewClaimed()).toBe(0);
  expect(await b.expired()).toContain(ID);
  expect(await b.claim(ID, 4)).toBe(true);
});

it('a dead holder renews nothing: its slow attempt is taken over once its lease ran out', async () => {
  expect(await a.claim(ID, 3)).toBe(true);
  await expireLease();
  // A was SIGKILLed mid-attempt (no renewal): B may make attempt 3 again (a resend after a kill).
  expect(await b.expired()).toContain(ID);
  expect(await b.claim(ID, 3)).toBe(true);
  // A claim another process took over is not renewed by its former holder.
  expect(await a.renewClaimed()).toBe(0);
});

it('a finished delivery is neither claimed nor renewed', async () => {
  expect(await a.claim(ID, 3)).toBe(true);
  await db.query(`UPDATE webhook_deliveries SET status = 'succeeded' WHERE id = $1`, [ID]);
  expect(await a.renewClaimed()).toBe(0);
  expect(await b.claim(ID, 3)).toBe(false);
});
