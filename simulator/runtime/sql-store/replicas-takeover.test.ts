// A webhook delivery of a replica that is SIGKILLed is taken over by the other once its lease ran out: replica A is a
// real `stablepay start --database-url … --delivery-lease-ms 2000` process, replica B an in-process server on the same
// throw-away cluster. A's attempt fails (the receiver answers 500), A is killed, B's sweep finds A's lease expired and
// sends the retry when it falls due on B's virtual clock: the receiver sees the event twice in all (A's failed
// attempt, B's successful one), never two attempts of one number.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startCliReplica } from '../../test-support/cli-replica.ts';
import { type PostgresCluster, startPostgresCluster } from '../../test-support/postgres-cluster.ts';
import { type RunningServer, startServer } from '../server.ts';
import { openPostgres } from './postgres-client.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_takeover0000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const LEASE_MS = 2000;

let cluster: PostgresCluster;
let child: ChildProcess | undefined;
let b: RunningServer | undefined;
let receiver: Server;
let answer = 500;
/** Every request the receiver got: the delivery and the attempt's instant. */
const attempts: { deliveryId: string; attempt: string }[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      // One attempt is told from another by its scheduled (virtual) instant.
      attempts.push({
        deliveryId: String(request.headers['x-service-delivery-id']),
        attempt: String(request.headers['x-simulator-attempt-timestamp']),
      });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await b?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  cluster?.stop();
});

it(`a SIGKILLed replica's pending delivery is sent by the other once its ${LEASE_MS} ms lease ran out, each attempt once`, async () => {
  const url = cluster.createDatabase('takeover');
  const replica = await startCliReplica({ apiKey: KEY, databaseUrl: url, args: ['--no-chains', '--delivery-lease-ms', String(LEASE_MS)] });
  child = replica.child;
  const a = replica.baseUrl;
  b = await startServer({
    port: 0,
    defaultApiKey: KEY,
    logger: { info: () => undefined, error: () => undefined },
    databaseUrl: url,
    deliveryLeaseMs: LEASE_MS,
  });
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  expect((await fetch(`${a}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiverUrl }) })).status).toBe(201);
  const created = await fetch(`${a}/v1/payments`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ amount: '5', currency: 'USD' }),
  });
  const { id } = (await created.json()) as { id: string };
  expect((await fetch(`${a}/v1/payments/${id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
  // A's first attempt is answered 500 and recorded; the retry is due later on the virtual clock.
  const inTakeover = await openPostgres(url, { poolSize: 1 });
  try {
    const rows = async () =>
      (
        await inTakeover.query<{ status: string; n: number }>(
          `SELECT status, jsonb_array_length(body->'attempts') AS n FROM webhook_deliveries WHERE body->>'paymentId' = $1 AND body->>'event' = 'payment.cancelled'`,
          [id],
        )
      ).rows;
    await expect.poll(rows, { timeout: 30_000 }).toEqual([{ status: 'pending', n: 1 }]);
    child?.kill('SIGKILL');
    answer = 200;
    // B knew the delivery all along but did not send it while A held the lease; now its sweep takes it over and the
    // retry goes out once it is due on B's clock.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(
      (await fetch(`${b.url}/control/v1/clock/advance`, { method: 'POST', headers: auth, body: JSON.stringify({ ms: 2 * 3_600_000 }) }))
        .status,
    ).toBe(200);
    await expect.poll(rows, { timeout: 30_000 }).toEqual([{ status: 'succeeded', n: 2 }]);
    await b.simulator.webhooks.idle();
    // Two requests in all, of one delivery (the cancel's), at two instants: A's failed one and B's.
    const cancelled = attempts.filter((x) => x.deliveryId === attempts[attempts.length - 1]?.deliveryId);
    expect(cancelled).toHaveLength(2);
    expect(new Set(cancelled.map((x) => x.attempt)).size).toBe(2);
  } finally {
    await inTakeover.close();
  }
});
