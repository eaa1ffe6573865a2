// Issue 28, a page payment stuck PROCESSING against two replicas. The receipt's settlement is reported outside any
// request and committed a moment later; when the catch-up before that commit meets another process's version of any
// record this process changed meanwhile, everything not yet committed is undone (sql-durable-state.ts), the
// settlement with it. The payment was then PROCESSING for good: its operation mined, no hook firing again, and its
// lease renewed by the live holder so nobody took it over. Here that order is made certain: the test holds the write
// lock while A's bundler settles the payment and A renames its merchant, then commits another version of that
// merchant as another process would. A must record the settlement again, once, right after the undo, and keep the
// outcome of the webhook attempt it made meanwhile (not send it again).
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { type Receiver, startReceiver } from '../../test-support/webhooks.ts';
import { type ReplicasOnChain, startReplicasOnChain } from '../../test-support/replicas-on-chain.ts';
import type { RunningServer } from '../server.ts';
import type { SqlClient } from './sql-client.ts';
import { takeWriteLock, writeChange } from './sql-changes.ts';

// initdb, Anvil and two server starts take a while on a loaded 2-core machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const KEY = 'pk_lostoutcome00000000000000000000000000000000000';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CHAIN = 8453;
/**
 * Long: the holder's sweep (every half lease, a backstop) does not come round during the test, so what records the
 * settlement again is the holder reacting to the undo itself.
 */
const LEASE_MS = 120_000;
/** A's bundler waits this long after admission: time for the test to take the write lock before the settlement. */
const A_BUNDLE_DELAY_MS = 3000;

let replicas: ReplicasOnChain;
let db: SqlClient;
let a: RunningServer;
let b: RunningServer;
let receiver: Receiver;
/** What A logged. */
const aLog: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver(Date.now);
  replicas = await startReplicasOnChain({
    database: 'lost_outcome',
    chainId: CHAIN,
    key: KEY,
    options: { deliveryLeaseMs: LEASE_MS },
    a: { logger: { info: (line: string) => aLog.push(line), error: (line: string) => aLog.push(line) }, bundleDelayMs: A_BUNDLE_DELAY_MS },
    b: { bundleDelayMs: 0 },
  });
  ({ db, a, b } = replicas);
  const endpoint = await fetch(`${b.url}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiver.url }) });
  expect(endpoint.status).toBe(201);
});
afterAll(async () => {
  await replicas?.stop();
  await receiver?.close();
});

const read = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (base: string, path: string, body: unknown, headers: Record<string, string> = auth) =>
  fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const statusOn = async (server: RunningServer, paymentId: string): Promise<string> =>
  (await read<{ status: string }>(fetch(`${server.url}/v1/payments/${paymentId}`, { headers: auth }))).status;

/** The hosted page's steps through A up to the signed operation sent: the payment is PROCESSING, committed. */
async function payThroughA(paymentId: string): Promise<void> {
  const page = { 'content-type': 'application/json' };
  const signIn = await read<{ checkoutToken: string; ownerPrivateKey: `0x${string}` }>(
    post(a.url, `/p/${paymentId}/sign-in`, { email: 'lost@example.com' }, page),
  );
  const withToken = { ...page, authorization: `Bearer ${signIn.checkoutToken}` };
  const prepared = await read<{ userOpHash: `0x${string}`; userOperation: Record<string, unknown>; entryPoint: string }>(
    post(a.url, `/p/${paymentId}/prepare`, { chainId: CHAIN, token: 'USDC' }, withToken),
  );
  const signature = await privateKeyToAccount(signIn.ownerPrivateKey).signMessage({ message: { raw: prepared.userOpHash } });
  const sent = await read<{ result?: string; error?: { message: string } }>(
    post(
      a.url,
      `/v1/web3/${CHAIN}`,
      { jsonrpc: '2.0', id: 1, method: 'eth_sendUserOperation', params: [{ ...prepared.userOperation, signature }, prepared.entryPoint] },
      withToken,
    ),
  );
  expect(sent.error).toBeUndefined();
}

it('a settlement undone by a conflict on another record is recorded again: SUCCESSFUL through both replicas, one payment.completed, one ledger entry', async () => {
  const created = await read<{ id: string }>(post(a.url, '/v1/payments', { amount: '12.34', currency: 'USD', acceptedChains: [CHAIN] }));
  const paymentId = created.id;
  const merchantId = a.simulator.payments.find(paymentId)?.merchantId ?? '';
  await payThroughA(paymentId);
  expect(await statusOn(b, paymentId)).toBe('PROCESSING');

  const merchantRow = await db.query<{ body: string }>("SELECT body::text AS body FROM records WHERE kind = 'merchant' AND id = $1", [
    merchantId,
  ]);
  const merchant = JSON.parse(merchantRow.rows[0]?.body ?? 'null') as Record<string, unknown>;
  expect(merchant).toMatchObject({ id: merchantId });

  await db.transaction(async (tx) => {
    // Nobody commits while this is held: A's settlement and rename stay pending, its next catch-up comes after ours.
    await takeWriteLock(tx);
    await expect.poll(() => a.simulator.payments.find(paymentId)?.status, { timeout: 30_000, interval: 50 }).toBe('SUCCESSFUL');
    a.simulator.merchants.update(merchantId, { name: 'renamed through A' });
    await writeChange(tx, { kind: 'merchant', id: merchantId, value: { ...merchant, name: 'renamed elsewhere' }, deleted: false });
  });
  // The conflict undid A's pending changes, the settlement with them (the merchant is the other process's version).
  await expect.poll(() => a.simulator.merchants.get(merchantId)?.name, { timeout: 10_000 }).toBe('renamed elsewhere');
  // A says so in its log: which record another process changed first.
  await expect.poll(() => aLog.find((line) => line.includes(`another process changed merchant ${merchantId} first`))).toBeDefined();

  await expect.poll(() => statusOn(b, paymentId), { timeout: 10_000, interval: 200 }).toBe('SUCCESSFUL');
  expect(await statusOn(a, paymentId)).toBe('SUCCESSFUL');
  const eventsOf = (): string[] =>
    receiver.requests
      .map((r) => JSON.parse(r.rawBody) as { event: string; data?: { paymentId?: string } })
      .filter((payload) => payload.data?.paymentId === paymentId)
      .map((payload) => payload.event);
  await expect.poll(() => eventsOf().includes('payment.completed'), { timeout: 30_000, interval: 200 }).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await a.simulator.webhooks.idle();
  await b.simulator.webhooks.idle();
  expect(eventsOf().filter((event) => event === 'payment.completed')).toHaveLength(1);
  // payment.processing's first attempt had its outcome pending too: the undo keeps it (the request was made), so it is
  // not sent again (it was, before: the undo put the delivery back to no attempt).
  expect(eventsOf().filter((event) => event === 'payment.processing')).toHaveLength(1);
  const ledger = await db.query("SELECT id FROM records WHERE kind = 'transaction' AND body->>'paymentId' = $1", [paymentId]);
  expect(ledger.rows).toHaveLength(1);
  const deliveries = await db.query<{ event: string; n: string }>(
    "SELECT body->>'event' AS event, count(*) AS n FROM webhook_deliveries WHERE body->>'paymentId' = $1 GROUP BY 1 ORDER BY 1",
    [paymentId],
  );
  expect(Object.fromEntries(deliveries.rows.map((row) => [row.event, Number(row.n)]))).toEqual({
    'payment.completed': 1,
    'payment.processing': 1,
  });
  // (The lease is given up by the holder's next sweep, as after any settlement: not within this test's long lease.)
});
