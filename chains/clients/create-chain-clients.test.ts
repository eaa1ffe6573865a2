// The chain clients' transport asks once more when a request timed out: a black-box target's clock moved by libfaketime
// fires the time-out's timer while the chain's answer is on its way (a jump of minutes in the middle of a request),
// and a read that failed there failed a held payment. A JSON-RPC refusal is not asked again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, http } from 'viem';
import { getTransactionCount } from 'viem/actions';
import { afterEach, describe, expect, it } from 'vitest';
import { CHAIN_TRANSPORT } from './create-chain-clients.ts';

const ADDRESS = '0x00000000000000000000000000000000000000a1';
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A JSON-RPC endpoint: `answer(n)` for the n-th request (1-based) gives its reply and how long it holds it back. */
async function endpoint(answer: (n: number) => { delayMs: number; body: unknown }): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const { id } = JSON.parse(text) as { id: number };
    const { delayMs, body } = answer(++requests);
    setTimeout(() => {
      if (!res.destroyed)
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, ...(body as object) }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, requests: () => requests };
}

// The time-out is shortened here (the chain layer keeps viem's 10 s): what is tested is what follows one.
const clientOf = (url: string) => createClient({ transport: http(url, { ...CHAIN_TRANSPORT, timeout: 200, retryDelay: 10 }) });

describe('the chain transport', () => {
  it('asks once more when a request timed out, and gets the answer', async () => {
    const chain = await endpoint((n) => ({ delayMs: n === 1 ? 1_000 : 0, body: { result: '0x7' } }));
    await expect(getTransactionCount(clientOf(chain.url), { address: ADDRESS, blockTag: 'pending' })).resolves.toBe(7);
    expect(chain.requests()).toBe(2);
  });

  it('does not ask again after a JSON-RPC refusal', async () => {
    const chain = await endpoint(() => ({ delayMs: 0, body: { error: { code: -32003, message: 'nonce too low' } } }));
    await expect(getTransactionCount(clientOf(chain.url), { address: ADDRESS, blockTag: 'pending' })).rejects.toThrow(/nonce too low/);
    expect(chain.requests()).toBe(1);
  });
});
