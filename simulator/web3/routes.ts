// POST /v1/web3/{chainId}: the JSON-RPC pass-through of the checkout flow. The chain layer plugs
// in through `handler`; until it does (or when the simulator runs without chains) known chains
// answer with JSON-RPC errors saying no node is attached. Unknown chainIds are 404.
import { Hono } from 'hono';
import { findChain } from '../reference-data/chains.ts';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';

export interface Web3Response {
  status: number;
  body: unknown;
}

/** Who sent the request: the merchant, and the checkout token when the page's customer did. */
export interface Web3Caller {
  merchantId: string;
  checkoutToken?: string;
}

/** The seam for the chain layer: gets the chainId, the raw request body and the caller, returns the reply. */
export type Web3Handler = (chainId: number, rawBody: string, caller: Web3Caller) => Promise<Web3Response>;

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });

/** The answer when no chain node is attached: parse and shape errors as JSON-RPC says, then -32000. */
export function detachedChainResponse(chainId: number, rawBody: string): Web3Response {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { status: 200, body: rpcError(null, -32700, 'Parse error') };
  }
  const answer = (request: unknown) => {
    const valid = typeof request === 'object' && request !== null && !Array.isArray(request) && (request as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof (request as { method?: unknown }).method === 'string';
    const id = valid ? (request as { id?: unknown }).id : null;
    return valid ? rpcError(id, -32000, `No node is attached for chain ${chainId} in this simulator run`) : rpcError(null, -32600, 'Invalid Request');
  };
  if (Array.isArray(parsed)) {
    return { status: 200, body: parsed.length === 0 ? rpcError(null, -32600, 'Invalid Request') : parsed.map(answer) };
  }
  return { status: 200, body: answer(parsed) };
}

export function web3Routes(options: { handler?: Web3Handler | undefined }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/:chainId', async (c) => {
    const raw = c.req.param('chainId');
    const chainId = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
    if (!findChain(chainId)) throw notFound(`Chain ${raw}`);
    const rawBody = await c.req.text();
    const checkoutToken = c.get('checkoutToken');
    const caller: Web3Caller = { merchantId: c.get('merchantId'), ...(checkoutToken ? { checkoutToken } : {}) };
    const reply = options.handler ? await options.handler(chainId, rawBody, caller) : detachedChainResponse(chainId, rawBody);
    // JSON-RPC notifications get no answer: 204 must carry no body.
    if (reply.status === 204) return c.body(null, 204);
    return c.json(reply.body as object, reply.status as 200);
  });
  return app;
}
