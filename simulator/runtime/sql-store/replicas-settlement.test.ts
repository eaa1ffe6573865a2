// Several simulators on one database settle each user operation once. Two in-process servers A and B and, for the
// crash, a real CLI replica C share one throw-away Postgres cluster and one chain (8453, started here and handed to
// every replica as `stablepay chains` would: RPC URLs and a chains file). The hosted page's calls spread over A and B,
// its signed operation sent to both at the same instant: one replica takes it, the other refuses it, and the payment
// has one SUCCESSFUL transition, one event of each kind, one ledger entry. C takes an operation and is SIGKILLed
// before it is mined: B takes it over once C's lease ran out and settles it, once.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHAINS_FILE_ENV, chainsFile } from '@stablepay/chains/chains-file';
import type { ChainNetwork } from '@stablepay/chains/build-chain-network';
import { parseUserOperation, submitAndSettle } from '@stablepay/chains';
import { createWeb3Proxy } from '@stablepay/chains/rpc-proxy';
import { startCliReplica } from '../../test-support/cli-replica.ts';
import { type Receiver, startReceiver } from '../../test-support/webhooks.ts';
import { type ReplicasOnChain, startReplicasOnChain } from '../../test-support/replicas-on-chain.ts';
import type { RunningServer } from '../server.ts';
import type { SqlClient } from './sql-client.ts';

// initdb, Anvil and three server starts take a while on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_settleonce000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CHAIN = 8453;
/** Short, so a SIGKILLed replica's operations are taken over within seconds. */
const LEASE_MS = 2000;

let replicas: ReplicasOnChain;
let network: ChainNetwork;
let dir: string;
let chainsFilePath: string;
let url: string;
let db: SqlClient;
let a: RunningServer;
let b: RunningServer;
let child: ChildProcess | undefined;
let receiver: Receiver;
/** Every webhook request the receiver got so far: event type and payment id. */
const received = (): { type: string; paymentId: string }[] =>
  receiver.requests.map((r) => {
    const payload = JSON.parse(r.rawBody) as { event: string; data?: { paymentId?: string } };
    return { type: payload.event, paymentId: payload.data?.paymentId ?? '' };
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stablepay-settle-once-'));
  receiver = await startReceiver(Date.now);
  replicas = await startReplicasOnChain({
    database: 'settlement',
    chainId: CHAIN,
    key: KEY,
    options: { deliveryLeaseMs: LEASE_MS, bundleDelayMs: 0 },
  });
  ({ network, url, db, a, b } = replicas);
  chainsFilePath = join(dir, 'chains.json');
  writeFileSync(chainsFilePath, JSON.stringify(chainsFile(network)));
  const endpoint = await fetch(`${a.url}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiver.url }) });
  expect(endpoint.status).toBe(201);
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await replicas?.stop();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const read = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (base: string, path: string, body: unknown, headers: Record<string, string> = auth) =>
  fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const createPayment = async (base: string): Promise<string> =>
  (await read<{ id: string }>(post(base, '/v1/payments', { amount: '12.34', currency: 'USD', acceptedChains: [CHAIN] }))).id;
const rpc = (base: string, token: string, method: string, params: unknown[]) =>
  read<{ result?: unknown; error?: { message: string } }>(
    post(
      base,
      `/v1/web3/${CHAIN}`,
      { jsonrpc: '2.0', id: 1, method, params },
      {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
    ),
  );

/** What the database and the receiver hold of one payment once every replica is quiet. */
async function settledRecord(paymentId: string) {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await a.simulator.webhooks.idle();
  await b.simulator.webhooks.idle();
  const deliveries = await db.query<{ event: string; n: string }>(
    "SELECT body->>'event' AS event, count(*) AS n FROM webhook_deliveries WHERE body->>'paymentId' = $1 GROUP BY 1 ORDER BY 1",
    [paymentId],
  );
  const ledger = await db.query("SELECT id FROM records WHERE kind = 'transaction' AND body->>'paymentId' = $1", [paymentId]);
  const events = received()
    .filter((r) => r.paymentId === paymentId)
    .map((r) => r.type);
  return {
    deliveries: Object.fromEntries(deliveries.rows.map((row) => [row.event, Number(row.n)])),
    ledgerEntries: ledger.rows.length,
    events: [...events].sort(),
  };
}

/** Replica C: a real `stablepay start` on the same database and chains, with the short lease (SIGKILLed by its test). */
async function startReplicaC(): Promise<Awaited<ReturnType<typeof startCliReplica>>> {
  const replica = await startCliReplica({
    apiKey: KEY,
    databaseUrl: url,
    args: ['--delivery-lease-ms', String(LEASE_MS)],
    env: { [CHAINS_FILE_ENV]: chainsFilePath },
  });
  child = replica.child;
  return replica;
}

/** Its two events arrived: the receiver, the outbox and the ledger hold one settlement, once. */
async function expectPaidOnce(paymentId: string): Promise<void> {
  await expect.poll(() => received().filter((r) => r.paymentId === paymentId).length, { timeout: 30_000 }).toBe(2);
  expect(await settledRecord(paymentId)).toEqual({
    // The events a paid payment sends (the endpoint was configured before it was created).
    deliveries: { 'payment.completed': 1, 'payment.processing': 1 },
    ledgerEntries: 1,
    events: ['payment.completed', 'payment.processing'],
  });
}

describe('a user operation across replicas on one database', () => {
  it('the page spread over A and B, its operation sent to both at once: one taker, one SUCCESSFUL transition, each event once, one ledger entry', async () => {
    const paymentId = await createPayment(a.url);
    const page = { 'content-type': 'application/json' };
    const signIn = await read<{ checkoutToken: string; ownerPrivateKey: `0x${string}` }>(
      post(b.url, `/p/${paymentId}/sign-in`, { email: 'replicas@example.com' }, page),
    );
    const prepared = await read<{ userOpHash: `0x${string}`; userOperation: Record<string, unknown>; entryPoint: string }>(
      post(
        a.url,
        `/p/${paymentId}/prepare`,
        { chainId: CHAIN, token: 'USDC' },
        { ...page, authorization: `Bearer ${signIn.checkoutToken}` },
      ),
    );
    const signature = await privateKeyToAccount(signIn.ownerPrivateKey).signMessage({ message: { raw: prepared.userOpHash } });
    const params = [{ ...prepared.userOperation, signature }, prepared.entryPoint];
    const replies = await Promise.all([a, b].map((server) => rpc(server.url, signIn.checkoutToken, 'eth_sendUserOperation', params)));
    expect(replies.filter((r) => r.result === prepared.userOpHash)).toHaveLength(1);
    const refused = replies.filter((r) => r.error);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error?.message).toMatch(/already been submitted/);

    // The page polls for the receipt on whichever replica its balancer picks.
    let turn = 0;
    await expect
      .poll(
        async () => (await rpc([a, b][turn++ % 2]!.url, signIn.checkoutToken, 'eth_getUserOperationReceipt', [prepared.userOpHash])).result,
        {
          timeout: 60_000,
          interval: 300,
        },
      )
      .toBeTruthy();
    await expect
      .poll(async () => (await read<{ status: string }>(fetch(`${b.url}/v1/payments/${paymentId}`, { headers: auth }))).status, {
        timeout: 30_000,
      })
      .toBe('SUCCESSFUL');
    const onA = await read<{ status: string; txHash: string }>(fetch(`${a.url}/v1/payments/${paymentId}`, { headers: auth }));
    const onB = await read<{ status: string; txHash: string }>(fetch(`${b.url}/v1/payments/${paymentId}`, { headers: auth }));
    expect(onA).toMatchObject({ status: 'SUCCESSFUL', txHash: onB.txHash });

    await expectPaidOnce(paymentId);
    // Settled: nobody holds the operation any more.
    await expect
      .poll(async () => (await db.query('SELECT 1 FROM user_operation_leases WHERE payment_id = $1', [paymentId])).rows.length, {
        timeout: 10_000,
      })
      .toBe(0);
  });

  it('payments bundled by A, B and A again in turn all settle: the bundler account is shared, its nonce read again when the other used it', async () => {
    for (const server of [a, b, a]) {
      const paymentId = await createPayment(server.url);
      const { token, params } = await signedOperation(paymentId, server.url);
      const reply = await rpc(server.url, token, 'eth_sendUserOperation', params);
      expect(reply.error).toBeUndefined();
      await expect
        .poll(async () => (await read<{ status: string }>(fetch(`${server.url}/v1/payments/${paymentId}`, { headers: auth }))).status, {
          timeout: 30_000,
          interval: 200,
        })
        .toBe('SUCCESSFUL');
    }
  });

  it('the replica that took an operation is SIGKILLed before it was mined: B takes it over after the lease and it settles once', async () => {
    const replica = await startReplicaC();
    const base = replica.baseUrl;
    const paymentId = await createPayment(base);
    // The control API's customer submits through C: the operation is accepted and held in C's mempool.
    const submitted = await post(base, `/control/v1/payments/${paymentId}/submit`, { chainId: CHAIN, token: 'USDC' });
    expect(submitted.status).toBe(200);
    expect(await read<{ status: string }>(submitted)).toMatchObject({ status: 'PROCESSING' });
    const holder = async () =>
      (await db.query<{ owner: string }>('SELECT owner FROM user_operation_leases WHERE payment_id = $1', [paymentId])).rows[0]?.owner;
    const holderC = await holder();
    expect(holderC).toBeDefined();
    // While C lives, B leaves the operation alone.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 1.5));
    expect(await holder()).toBe(holderC);

    child?.kill('SIGKILL');
    await expect.poll(holder, { timeout: 30_000, interval: 200 }).not.toBe(holderC);
    // Held as before (a control-API operation waits for its confirm), now in the mempool of whichever of A and B
    // took it over: a confirm through that one bundles it; through the other it is refused (it is not in its
    // mempool) or finds it settled. Either order, one confirm settles it.
    const confirms = [];
    for (const server of [a, b]) confirms.push(await post(server.url, `/control/v1/payments/${paymentId}/confirm`, {}));
    const settled = confirms.filter((r) => r.status === 200);
    expect(settled).toHaveLength(1);
    expect(await read<{ status: string }>(settled[0] as Response)).toMatchObject({ status: 'SUCCESSFUL' });
    for (const server of [a, b])
      expect(await read<{ status: string }>(fetch(`${server.url}/v1/payments/${paymentId}`, { headers: auth }))).toMatchObject({
        status: 'SUCCESSFUL',
      });
    await expectPaidOnce(paymentId);
  });
});

describe("a held operation (the control API's) through any replica", () => {
  const control = (base: string, paymentId: string, action: 'submit' | 'confirm' | 'fail') =>
    post(base, `/control/v1/payments/${paymentId}/${action}`, action === 'submit' ? { chainId: CHAIN, token: 'USDC' } : {});
  const leaseOwner = async (paymentId: string) =>
    (await db.query<{ owner: string }>('SELECT owner FROM user_operation_leases WHERE payment_id = $1', [paymentId])).rows[0]?.owner;
  const submittedThrough = async (base: string): Promise<{ paymentId: string; holder: string | undefined }> => {
    const paymentId = await createPayment(base);
    const submitted = await control(base, paymentId, 'submit');
    expect(submitted.status).toBe(200);
    expect(await read<{ status: string }>(submitted)).toMatchObject({ status: 'PROCESSING' });
    return { paymentId, holder: await leaseOwner(paymentId) };
  };
  const statusOn = async (base: string, paymentId: string) =>
    (await read<{ status: string }>(fetch(`${base}/v1/payments/${paymentId}`, { headers: auth }))).status;

  it('submitted through A, confirmed through B: 200 SUCCESSFUL, bundled by B, each event once, one ledger entry; A leaves it alone', async () => {
    const { paymentId, holder } = await submittedThrough(a.url);
    expect(holder).toBeDefined();
    const confirmed = await control(b.url, paymentId, 'confirm');
    expect(confirmed.status).toBe(200);
    expect(await read<{ status: string; txHash: string }>(confirmed)).toMatchObject({ status: 'SUCCESSFUL', txHash: expect.any(String) });
    expect(await statusOn(a.url, paymentId)).toBe('SUCCESSFUL');
    // A's copy never moves: a confirm or fail through A now meets a SUCCESSFUL payment.
    expect((await control(a.url, paymentId, 'confirm')).status).toBe(409);
    expect((await control(a.url, paymentId, 'fail')).status).toBe(409);
    await expectPaidOnce(paymentId);
  });

  it('submitted through A, failed through B: 200 FAILED (bundler), never mined, each event once, no ledger entry', async () => {
    const { paymentId } = await submittedThrough(a.url);
    const failed = await control(b.url, paymentId, 'fail');
    expect(failed.status).toBe(200);
    expect(await read<{ status: string; error?: { source: string } }>(failed)).toMatchObject({
      status: 'FAILED',
      error: { source: 'bundler' },
    });
    // A may not bundle it afterwards: a confirm through A is refused and the payment stays FAILED.
    expect((await control(a.url, paymentId, 'confirm')).status).toBe(409);
    expect(await statusOn(a.url, paymentId)).toBe('FAILED');
    await expect.poll(() => received().filter((r) => r.paymentId === paymentId).length, { timeout: 30_000 }).toBe(2);
    expect(await settledRecord(paymentId)).toEqual({
      deliveries: { 'payment.failed': 1, 'payment.processing': 1 },
      ledgerEntries: 0,
      events: ['payment.failed', 'payment.processing'],
    });
  });

  it('held by a replica that was SIGKILLed: confirmed through B right after the kill (whoever swept it up), settled once', async () => {
    // The short lease, so C's pending deliveries (payment.processing) are taken over too; the confirm does not wait
    // for the operation's takeover: whether B, A or nobody swept it up yet, B takes it.
    const replica = await startReplicaC();
    const { paymentId, holder } = await submittedThrough(replica.baseUrl);
    const exited = new Promise((resolve) => replica.child.once('exit', resolve));
    replica.child.kill('SIGKILL');
    await exited;
    const confirmed = await control(b.url, paymentId, 'confirm');
    expect(confirmed.status).toBe(200);
    expect(await read<{ status: string }>(confirmed)).toMatchObject({ status: 'SUCCESSFUL' });
    expect(await leaseOwner(paymentId)).not.toBe(holder);
    expect(await statusOn(a.url, paymentId)).toBe('SUCCESSFUL');
    await expectPaidOnce(paymentId);
  });

  it('a stale copy is never bundled: taken, mined and left unrecorded by another process, then marked held again, a confirm through A settles it from the receipt', async () => {
    const { paymentId } = await submittedThrough(a.url);
    // Another process takes it (A's copy stays in A's mempool), mines it and stops before recording anything...
    await db.query(
      "UPDATE user_operation_leases SET owner = 'stopped', held = false, lease_until = now() + interval '1 hour' WHERE payment_id = $1",
      [paymentId],
    );
    const { rows } = await db.query<{ op: Record<string, unknown> }>(
      "SELECT body->'prepared'->'signedOperation' AS op FROM records WHERE kind = 'checkout-session' AND body->>'paymentId' = $1",
      [paymentId],
    );
    const elsewhere = createWeb3Proxy(network, {}, { mode: 'immediate' });
    const { settlement } = await submitAndSettle(elsewhere, CHAIN, parseUserOperation(rows[0]?.op as Record<string, unknown>));
    expect(settlement.success).toBe(true);
    // ...and a takeover put it back, held, as it does for an operation whose taker stopped.
    await db.query('UPDATE user_operation_leases SET held = true WHERE payment_id = $1', [paymentId]);
    const confirmed = await control(a.url, paymentId, 'confirm');
    expect(confirmed.status).toBe(200);
    expect(await read<{ status: string; txHash: string }>(confirmed)).toMatchObject({ status: 'SUCCESSFUL', txHash: settlement.txHash });
    await expectPaidOnce(paymentId);
  });

  it('a confirm through A and a fail through B at the same instant: exactly one wins, one transition, each event once', async () => {
    const { paymentId } = await submittedThrough(a.url);
    const [confirmed, failed] = await Promise.all([control(a.url, paymentId, 'confirm'), control(b.url, paymentId, 'fail')]);
    const statuses = [confirmed.status, failed.status].sort();
    expect(statuses).toEqual([200, 409]);
    const final = confirmed.status === 200 ? 'SUCCESSFUL' : 'FAILED';
    expect(await statusOn(b.url, paymentId)).toBe(final);
    await expect.poll(() => received().filter((r) => r.paymentId === paymentId).length, { timeout: 30_000 }).toBe(2);
    expect((await settledRecord(paymentId)).events).toEqual([
      final === 'SUCCESSFUL' ? 'payment.completed' : 'payment.failed',
      'payment.processing',
    ]);
  });
});

/** The hosted page's steps up to the signed operation, on one replica: sign in, prepare, sign. */
async function signedOperation(paymentId: string, base: string): Promise<{ token: string; params: unknown[] }> {
  const page = { 'content-type': 'application/json' };
  const signIn = await read<{ checkoutToken: string; ownerPrivateKey: `0x${string}` }>(
    post(base, `/p/${paymentId}/sign-in`, { email: 'turns@example.com' }, page),
  );
  const prepared = await read<{ userOpHash: `0x${string}`; userOperation: Record<string, unknown>; entryPoint: string }>(
    post(base, `/p/${paymentId}/prepare`, { chainId: CHAIN, token: 'USDC' }, { ...page, authorization: `Bearer ${signIn.checkoutToken}` }),
  );
  const signature = await privateKeyToAccount(signIn.ownerPrivateKey).signMessage({ message: { raw: prepared.userOpHash } });
  return { token: signIn.checkoutToken, params: [{ ...prepared.userOperation, signature }, prepared.entryPoint] };
}
