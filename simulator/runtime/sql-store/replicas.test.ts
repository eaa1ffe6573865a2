// Several simulators on one Postgres database act as one sandbox (issue 28 step 3): two in-process servers on one
// throw-away cluster (test-support/postgres-cluster.ts), each with its own pool. A payment created through one is
// read, listed and cancelled through the other; an externalId burst spread over both gives one 201; a clock advance
// through one expires the payment once (one event, one attempt) and the other sees it; a write the database refuses
// (a trigger that raises) is answered 503 and leaves nothing, in either process's memory or in the database; a
// rate-limit window set through one is counted across both; a reset through one is a fresh start on both; a test clock
// made through one is found through the other.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '../../test-support/postgres-cluster.ts';
import { type RunningServer, startServer } from '../server.ts';
import { openPostgres } from './postgres-client.ts';
import type { SqlClient } from './sql-client.ts';
import { takeWriteLock } from './sql-changes.ts';
import { migrate } from './schema.ts';

// initdb and a server start take 5 to 30 s on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_replicas00000000000000000000000000000000000000';
const quiet = { info: () => undefined, error: () => undefined };
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let cluster: PostgresCluster;
let db: SqlClient;
let a: RunningServer;
let b: RunningServer;
let receiver: Server;
let receiverUrl: string;
/** Every webhook request the receiver got: event type, payment id and when it arrived (wall ms). */
const received: { type: string; paymentId: string; at: number }[] = [];
/** Payments whose first webhook attempt the receiver answers 500 (so a retry is due). */
const failFirst = new Set<string>();

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const url = cluster.createDatabase('replicas');
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const payload = JSON.parse(body) as { event: string; data?: { paymentId?: string } };
      const paymentId = payload.data?.paymentId ?? '';
      const first = !received.some((r) => r.paymentId === paymentId);
      received.push({ type: payload.event, paymentId, at: Date.now() });
      response.writeHead(first && failFirst.has(paymentId) ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  // One after the other, as a second replica joins a running one: it finds the first one's default merchant and key.
  a = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, databaseUrl: url, databasePoolSize: 4 });
  b = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, databaseUrl: url, databasePoolSize: 4 });
  db = await openPostgres(url, { poolSize: 2 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  cluster?.stop();
});

const create = (server: RunningServer, body: Record<string, unknown>) =>
  fetch(`${server.url}/v1/payments`, { method: 'POST', headers: auth, body: JSON.stringify({ amount: '10', currency: 'USD', ...body }) });
const read = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

describe('two simulators on one Postgres database', () => {
  it('share the default merchant and its key', () => {
    expect(b.simulator.defaultMerchant.id).toBe(a.simulator.defaultMerchant.id);
    expect(b.simulator.restored).toMatchObject({ merchants: 1, keys: 1 });
  });

  it('a start is reported once its default merchant and key are committed: a replica started next shares them', async () => {
    // A database of its own. The test locks the records table while A starts, so A's first-start records (the default
    // merchant and key, the start's record) stay pending: A must not report started before they are written. Before,
    // it did at once; a replica started right after could then restore without them and make a default merchant and
    // key of its own (suspected in a CI run where B answered 401 to the first request of replicas-lost-outcome).
    // Then B, started after A, shares A's default merchant and key.
    const url = cluster.createDatabase('start_order');
    const own = await openPostgres(url, { poolSize: 1 });
    let first: RunningServer | undefined;
    let second: RunningServer | undefined;
    try {
      let secondStarting: Promise<RunningServer> | undefined;
      const options = { port: 0, defaultApiKey: KEY, logger: quiet, databaseUrl: url, databasePoolSize: 2 };
      // The schema first, so the lock is held before A's start writes anything.
      await migrate(own);
      let firstStarting: Promise<RunningServer> | undefined;
      await own.transaction(async (tx) => {
        // Reads go on (A's start restores what is there: nothing); writes to the records wait for the lock.
        await tx.query('LOCK TABLE records IN EXCLUSIVE MODE');
        firstStarting = startServer(options);
        firstStarting.catch(() => undefined);
        const early = await Promise.race([
          firstStarting.then(() => 'started' as const),
          new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 3000)),
        ]);
        if (early === 'started') secondStarting = startServer(options);
        // Not reported started while what it made cannot be written.
        expect(early).toBe('waiting');
      });
      first = await firstStarting!;
      second = await (secondStarting ?? startServer(options));
      expect(second.simulator.defaultMerchant.id).toBe(first.simulator.defaultMerchant.id);
      const endpoint = await fetch(`${second.url}/v1/webhooks`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ url: receiverUrl }),
      });
      expect(endpoint.status).toBe(201);
    } finally {
      await second?.close();
      await first?.close();
      await own.close();
    }
  });

  it('a payment created through A is read, listed and cancelled through B, and A sees the cancel', async () => {
    const created = await create(a, { externalId: 'shared-1' });
    expect(created.status).toBe(201);
    const { id } = await read<{ id: string }>(created);
    const got = await fetch(`${b.url}/v1/payments/${id}`, { headers: auth });
    expect(got.status).toBe(200);
    expect(await read<{ status: string }>(got)).toMatchObject({ id, status: 'ACTIVE' });
    const listed = await read<{ data: { id: string }[] }>(fetch(`${b.url}/v1/payments?externalId=shared-1`, { headers: auth }));
    expect(listed.data.map((p) => p.id)).toEqual([id]);
    const cancelled = await fetch(`${b.url}/v1/payments/${id}`, { method: 'DELETE', headers: auth });
    expect(cancelled.status).toBe(200);
    expect(await read<{ status: string }>(fetch(`${a.url}/v1/payments/${id}`, { headers: auth }))).toMatchObject({ status: 'CANCELLED' });
    // Cancelled through B: A cannot cancel it again, and its externalId is free on both.
    expect((await fetch(`${a.url}/v1/payments/${id}`, { method: 'DELETE', headers: auth })).status).toBe(400);
    expect((await create(a, { externalId: 'shared-1' })).status).toBe(201);
  });

  it('20 concurrent creates of one externalId, alternating between A and B, give exactly one 201', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 === 0 ? a : b, { externalId: 'burst-1' })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const inDatabase = await db.query("SELECT id FROM payments WHERE external_id = 'burst-1'");
    expect(inDatabase.rows).toHaveLength(1);
    for (const server of [a, b]) {
      const listed = await read<{ data: unknown[] }>(fetch(`${server.url}/v1/payments?externalId=burst-1`, { headers: auth }));
      expect(listed.data).toHaveLength(1);
    }
  });

  it('a clock advance through A expires a payment once: B sees it expired, one payment.expired event is delivered, once', async () => {
    const endpoint = await fetch(`${a.url}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiverUrl }) });
    expect(endpoint.status).toBe(201);
    const { id } = await read<{ id: string }>(create(b, { externalId: 'expires-1' }));
    // Both know it (A arms its expiry too).
    expect(await read<{ status: string }>(fetch(`${a.url}/v1/payments/${id}`, { headers: auth }))).toMatchObject({ status: 'ACTIVE' });
    const advanced = await fetch(`${a.url}/control/v1/clock/advance`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ms: 2 * 3_600_000 }),
    });
    expect(advanced.status).toBe(200);
    expect(await read<{ status: string }>(fetch(`${b.url}/v1/payments/${id}`, { headers: auth }))).toMatchObject({ status: 'EXPIRED' });
    // B applied the clock too and fired what it had due, which A had already done: nothing more happens.
    await a.simulator.webhooks.idle();
    await b.simulator.webhooks.idle();
    await expect.poll(() => received.filter((r) => r.paymentId === id && r.type === 'payment.expired').length, { timeout: 20_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await b.simulator.webhooks.idle();
    expect(received.filter((r) => r.paymentId === id && r.type === 'payment.expired')).toHaveLength(1);
    const deliveries = await db.query(
      "SELECT id FROM webhook_deliveries WHERE body->>'paymentId' = $1 AND body->>'event' = 'payment.expired'",
      [id],
    );
    expect(deliveries.rows).toHaveLength(1);
  });

  it('a retry leased to B is sent on time when the clock moves through A and B gets no request (found by the suite behind a balancer)', async () => {
    // The endpoint is A's from the test above. B cancels, so B writes the delivery, holds its lease and makes attempt 1
    // (answered 500); attempt 2 is due a minute later on the virtual clock, and only B may send it while its lease runs.
    const { id } = await read<{ id: string }>(create(b, { externalId: 'retry-through-a' }));
    failFirst.add(id);
    expect((await fetch(`${b.url}/v1/payments/${id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    const stored = async () =>
      (
        await db.query<{ n: number }>(
          `SELECT jsonb_array_length(body->'attempts') AS n FROM webhook_deliveries WHERE body->>'paymentId' = $1 AND body->>'event' = 'payment.cancelled'`,
          [id],
        )
      ).rows[0]?.n ?? 0;
    await expect.poll(stored, { timeout: 20_000 }).toBe(1);
    const advanced = await fetch(`${a.url}/control/v1/clock/advance`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ms: 61_000 }),
    });
    expect(advanced.status).toBe(200);
    const movedAt = Date.now();
    const clockChange = async () =>
      (await db.query<{ change: string }>("SELECT change FROM records WHERE kind = 'clock' AND id = 'offsets'")).rows[0]?.change;
    const movedChange = await clockChange();
    // Nothing is asked of B: it must learn of the move from the database by itself. Before it did, the retry waited for
    // B's next request or its lease sweep (15 s at the default 30 s lease): 2.7 s late in a CI run, outside the spec's margin.
    await expect.poll(() => received.filter((r) => r.paymentId === id).length, { timeout: 20_000 }).toBe(2);
    const retry = received.filter((r) => r.paymentId === id)[1];
    expect(retry?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(movedAt + 1500);
    // B records the attempt after the receiver answered it, so the row may lag the arrival by a group commit.
    await expect.poll(stored, { timeout: 20_000 }).toBe(2);
    // B applied the move and fired its timer without writing the clock back: an equal put from two processes is a
    // conflict that undoes whatever else either had pending.
    expect(await clockChange()).toBe(movedChange);
  });

  it('a change B made outside any request is not answered by B before it is committed: A never answers older after B answered newer', async () => {
    const { id } = await read<{ id: string }>(create(a, { externalId: 'background-1' }));
    expect(await read<{ status: string }>(fetch(`${b.url}/v1/payments/${id}`, { headers: auth }))).toMatchObject({ status: 'ACTIVE' });
    const statusOn = async (server: RunningServer) =>
      (await read<{ status: string }>(fetch(`${server.url}/v1/payments/${id}`, { headers: auth }))).status;
    let onB: Promise<string> | undefined;
    await db.transaction(async (tx) => {
      // Nobody commits while this is held. B changes the payment as its own timers and settlements do (outside any
      // request): the change is pending until the lock is let go.
      await takeWriteLock(tx);
      b.simulator.payments.cancel(b.simulator.defaultMerchant.id, id);
      onB = statusOn(b);
      const early = await Promise.race([onB, new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 1000))]);
      // Before the change, B answered CANCELLED at once while A, reading the database, answered ACTIVE.
      if (early !== 'still waiting') expect({ b: early, a: await statusOn(a) }).toEqual({ b: early, a: early });
      expect(early).toBe('still waiting');
    });
    expect(await onB).toBe('CANCELLED');
    expect(await statusOn(a)).toBe('CANCELLED');
  });

  it('a test clock made through A is found, read and moved through B before anyone moved it (found by the suite behind a balancer)', async () => {
    const made = await fetch(`${a.url}/control/v1/clocks`, { method: 'POST', headers: auth });
    expect(made.status).toBe(201);
    const { id } = await read<{ id: string }>(made);
    const got = await fetch(`${b.url}/control/v1/clocks/${id}`, { headers: auth });
    expect(got.status).toBe(200);
    expect(await read<{ id: string; offsetMs: number }>(got)).toMatchObject({ id, offsetMs: 0 });
    const moved = await fetch(`${b.url}/control/v1/clocks/${id}/advance`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(moved.status).toBe(200);
    expect(await read<{ offsetMs: number }>(fetch(`${a.url}/control/v1/clocks/${id}`, { headers: auth }))).toMatchObject({
      offsetMs: 60_000,
    });
  });

  it('a write the database refuses is answered 503 and leaves nothing: not in either memory, not in the database, not later', async () => {
    await db.exec(`
      CREATE FUNCTION refuse_marked() RETURNS trigger AS $$
      BEGIN
        IF NEW.external_id = 'refuse-me' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_marked BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION refuse_marked();
    `);
    try {
      const refused = await create(a, { externalId: 'refuse-me' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      for (const server of [a, b]) {
        const listed = await read<{ data: unknown[] }>(fetch(`${server.url}/v1/payments?externalId=refuse-me`, { headers: auth }));
        expect(listed.data).toEqual([]);
      }
    } finally {
      await db.exec('DROP TRIGGER refuse_marked ON payments; DROP FUNCTION refuse_marked()');
    }
    // Writes resume by themselves (the probe finds the database answering); the refused create is not written later.
    await expect
      .poll(async () => (await create(a, { externalId: `after-refusal-${Date.now()}` })).status, { timeout: 30_000, interval: 300 })
      .toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await db.query("SELECT id FROM payments WHERE external_id = 'refuse-me'")).rows).toEqual([]);
    // Its externalId was never taken: a create with it now succeeds.
    expect((await create(b, { externalId: 'refuse-me' })).status).toBe(201);
    // No delivery of a payment the database does not have.
    const orphans = await db.query(
      "SELECT d.id FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = d.body->>'paymentId')",
    );
    expect(orphans.rows).toEqual([]);
  });

  it('a rate-limit window is shared: set through A, counted across A and B, the 7th request of 6 allowed is refused wherever it lands', async () => {
    const settings = (limit: number, windowSeconds: number) =>
      fetch(`${a.url}/control/v1/rate-limit`, { method: 'PUT', headers: auth, body: JSON.stringify({ limit, windowSeconds }) });
    expect((await settings(6, 3600)).status).toBe(200);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1)
        statuses.push((await fetch(`${(i % 2 === 0 ? a : b).url}/v1/payments?limit=1`, { headers: auth })).status);
      // Each process alone saw 4: only a count they share refuses the 7th and 8th.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      expect((await settings(6000, 60)).status).toBe(200);
    }
  });

  // Last: it empties the sandbox the tests above share.
  it('a reset through B is a fresh start on both: A lists nothing, its clock is back at wall time, externalIds held before are free on both', async () => {
    expect((await create(a, { externalId: 'held-on-a' })).status).toBe(201);
    expect((await create(b, { externalId: 'held-on-b' })).status).toBe(201);
    const merchantBefore = a.simulator.defaultMerchant.id;
    const offsetOnA = async () => (await read<{ offsetMs: number }>(fetch(`${a.url}/control/v1/clock`, { headers: auth }))).offsetMs;
    const moved = await fetch(`${b.url}/control/v1/clock/advance`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ms: 3_600_000 }),
    });
    expect(moved.status).toBe(200);
    expect(await offsetOnA()).toBeGreaterThan(3_500_000);
    const reset = await fetch(`${b.url}/control/v1/reset`, { method: 'POST', headers: auth });
    expect(reset.status).toBe(200);
    const { merchantId } = await read<{ merchantId: string }>(reset);
    expect(merchantId).not.toBe(merchantBefore);

    // A finds the reset in the catch-up of its next request and answers it as the rebuilt simulator.
    expect(await read<{ data: unknown[] }>(fetch(`${a.url}/v1/payments`, { headers: auth }))).toMatchObject({ data: [] });
    expect(a.simulator.defaultMerchant.id).toBe(merchantId);
    expect(await offsetOnA()).toBe(0);

    // Each externalId is free on the process that did not hold it, and the new payments are seen by both.
    const onA = await create(a, { externalId: 'held-on-b' });
    const onB = await create(b, { externalId: 'held-on-a' });
    expect([onA.status, onB.status]).toEqual([201, 201]);
    for (const server of [a, b]) {
      const listed = await read<{ data: { externalId: string }[] }>(fetch(`${server.url}/v1/payments`, { headers: auth }));
      expect(listed.data.map((p) => p.externalId).sort()).toEqual(['held-on-a', 'held-on-b']);
    }
    expect((await create(b, { externalId: 'held-on-b' })).status).toBe(409);
    expect((await db.query('SELECT external_id FROM payments ORDER BY external_id')).rows).toEqual([
      { external_id: 'held-on-a' },
      { external_id: 'held-on-b' },
    ]);
  });
});
