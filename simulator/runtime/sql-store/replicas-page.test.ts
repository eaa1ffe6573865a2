// The hosted page through two replicas after a clock move (issue 28): two in-process servers A and B on one throw-away
// Postgres cluster and one chain. Checkout tokens given through both, then the clock moved past their 24 h through B:
// the next connects through A and B at once each drop the same expired sessions. Both processes deleting one record is
// no conflict, so every connect is answered 200 and its token is stored. (Before, the catch-up of the process whose
// delete was second took it for another process's change first and undid everything pending, the new session
// included: about half of these connects answered 503, as the black-box suite saw against `--replicas 2`.)
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashCheckoutToken } from '../../core/checkout/checkout-sessions.ts';
import { type ReplicasOnChain, startReplicasOnChain } from '../../test-support/replicas-on-chain.ts';
import type { RunningServer } from '../server.ts';
import type { SqlClient } from './sql-client.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_pagereplica0000000000000000000000000000000000';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const page = { 'content-type': 'application/json' };
const CHAIN = 8453;
const DAY_AND_HOUR = 25 * 3_600_000;
const ROUNDS = 20;
const OWNER = '0x1111111111111111111111111111111111111111';

let replicas: ReplicasOnChain;
let db: SqlClient;
let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  replicas = await startReplicasOnChain({ database: 'page', chainId: CHAIN, key: KEY });
  ({ db, a, b } = replicas);
});
afterAll(async () => {
  await replicas?.stop();
});

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = auth) =>
  fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const createPayment = async (base: string, body: Record<string, unknown> = {}): Promise<string> => {
  const created = await post(base, '/v1/payments', { amount: '12.34', currency: 'USD', acceptedChains: [CHAIN], ...body });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
};

describe('the hosted page through one replica while the clock moves through the other', () => {
  it('connects through A and B at once after B moved the clock past the checkout tokens given before: every one 200', async () => {
    const statuses: number[] = [];
    const messages: string[] = [];
    const tokens: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const payable = await createPayment(a.url);
      // Tokens given through both replicas, then a clock move past their 24 h: each replica drops them as expired at
      // its next connect (the same deletes, made by both).
      for (const server of [a, b])
        expect((await post(server.url, `/p/${payable}/connect`, { ownerAddress: OWNER }, page)).status).toBe(200);
      expect((await post(b.url, '/control/v1/clock/advance', { ms: DAY_AND_HOUR })).status).toBe(200);
      const fresh = await createPayment(b.url);
      const answers = await Promise.all(
        [a, b, a, b].map((server) => post(server.url, `/p/${fresh}/connect`, { ownerAddress: OWNER }, page)),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        if (answer.status !== 200) messages.push(await answer.text());
        else tokens.push(((await answer.json()) as { checkoutToken: string }).checkoutToken);
      }
    }
    expect(messages).toEqual([]);
    expect(statuses).toEqual(Array.from({ length: ROUNDS * 4 }, () => 200));
    // Those of the last round are still live (the earlier ones expired at a later round's connect): each is stored.
    const live = tokens.slice(-4).map(hashCheckoutToken);
    const stored = await db.query<{ id: string }>("SELECT id FROM records WHERE kind = 'checkout-session' AND id = ANY($1)", [live]);
    expect(stored.rows.map((row) => row.id).sort()).toEqual([...live].sort());
  });
});
