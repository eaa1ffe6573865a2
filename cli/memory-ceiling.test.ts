// Memory exhaustion is a 507, not a crash: `stablepay start` in a 48 MiB old space, filled with payments in one run
// and with webhook deliveries on one payment in another (test events to an endpoint nobody answers). The default
// ceiling (a share of the heap limit, every kind of record weighed: runtime/memory-ceiling.ts) answers 507 with its
// message before the heap runs out, and the process keeps serving. Before every record was counted, the second
// mix ran the heap out (V8 abort, exit 134): only payments were counted.
import { expect, it } from 'vitest';
import { spawnSimulatorCli } from '../simulator/test-support/spawn-simulator-cli.ts';

const KEY = 'pk_memoryceiling000000000000000000000000000000000000';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const MESSAGE =
  /^Insufficient storage: the records this simulator holds \(payments, webhook deliveries and their attempts, ledger entries, keys…\) are estimated at \d+ MiB, the most its memory allows \(--max-stored-mb \d+\)/;

/** Sends `request` 16 at a time until one is not `ok` or the server stops answering; returns how many were `ok`, and the first that was not. */
async function fillUntilRefused(request: () => Promise<Response>, ok: number): Promise<{ accepted: number; refused?: Response }> {
  let accepted = 0;
  let refused: Response | undefined;
  while (!refused && accepted < 200_000) {
    const batch = await Promise.allSettled(Array.from({ length: 16 }, request));
    // A server that stopped answering (the heap ran out) is judged by the caller from its exit code.
    if (batch.some((answer) => answer.status === 'rejected')) break;
    for (const answer of batch) {
      const res = (answer as PromiseFulfilledResult<Response>).value;
      if (res.status === ok) accepted += 1;
      else if (!refused) {
        refused = res;
        continue;
      }
      await res.arrayBuffer();
    }
  }
  return { accepted, ...(refused ? { refused } : {}) };
}

async function inSmallHeap(fill: (base: string) => Promise<{ accepted: number; refused?: Response }>) {
  const sim = await spawnSimulatorCli({ apiKey: KEY, nodeArgs: ['--max-old-space-size=48'], startTimeoutMs: 60_000 });
  try {
    // An endpoint nobody answers: deliveries stay held (pending, retried later).
    const endpoint = await fetch(`${sim.base}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
    });
    expect(endpoint.status).toBe(201);
    const result = await fill(sim.base);
    expect(sim.exitCode(), sim.output()).toBeUndefined();
    expect(result.refused?.status).toBe(507);
    expect(((await result.refused!.json()) as { message: string }).message).toMatch(MESSAGE);
    // Still serving: reads answer.
    expect((await fetch(`${sim.base}/v1/payments?limit=1`, { headers })).status).toBe(200);
    expect((await fetch(`${sim.base}/v1/webhooks/deliveries?limit=1`, { headers })).status).toBe(200);
    return result.accepted;
  } finally {
    await sim.stop();
  }
}

it('a simulator in a 48 MiB old space filled with payments answers 507 at its default ceiling and keeps serving', async () => {
  const body = JSON.stringify({ amount: '1', currency: 'USD', title: 'x'.repeat(200) });
  const created = await inSmallHeap((base) => fillUntilRefused(() => fetch(`${base}/v1/payments`, { method: 'POST', headers, body }), 201));
  // 15 % of the heap limit at an estimated 1.4 KB a payment.
  expect(created).toBeGreaterThan(5_000);
  expect(created).toBeLessThan(20_000);
}, 600_000);

it('filled with webhook deliveries on one payment (no more payments), it answers 507 too instead of running the heap out', async () => {
  const sent = await inSmallHeap(async (base) => {
    expect(
      (await fetch(`${base}/v1/payments`, { method: 'POST', headers, body: JSON.stringify({ amount: '1', currency: 'USD' }) })).status,
    ).toBe(201);
    return fillUntilRefused(() => fetch(`${base}/v1/webhooks/test`, { method: 'POST', headers }), 202);
  });
  expect(sent).toBeGreaterThan(5_000);
}, 600_000);
