// POST /v1/web3/{chainId}: the HTTP side of the web3 proxy. The proxy (create-web3-proxy.ts) plugs in
// through `handler`; until it does (or when the simulator runs without chains) known chains answer
// with JSON-RPC errors saying no node is attached (detached-chain-response.ts). Unknown chainIds are 404.
import { Hono } from 'hono';
import { findChain } from '@stablepay/contract/chain-table';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { readBodyText } from '../http/json-body.ts';
import type { Web3ProxyResponse } from '@stablepay/chains/rpc-proxy';
import { detachedChainResponse } from './detached-chain-response.ts';

/** Who sent the request: the merchant, and the checkout token when the page's customer did. */
export interface Web3Caller {
  merchantId: string;
  checkoutToken?: string;
}

/** The seam for the chain layer: gets the chainId, the raw request body and the caller, returns the reply. */
export type Web3Handler = (chainId: number, rawBody: string, caller: Web3Caller) => Promise<Web3ProxyResponse>;

export function web3Routes(options: { handler?: Web3Handler | undefined }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/:chainId', async (c) => {
    const raw = c.req.param('chainId');
    const chainId = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
    if (!findChain(chainId)) throw notFound(`Chain ${raw}`);
    const rawBody = await readBodyText(c);
    const checkoutToken = c.get('checkoutToken');
    const caller: Web3Caller = { merchantId: c.get('merchantId'), ...(checkoutToken ? { checkoutToken } : {}) };
    const reply = options.handler ? await options.handler(chainId, rawBody, caller) : detachedChainResponse(chainId, rawBody);
    // JSON-RPC notifications get no answer: 204 must carry no body.
    if (reply.status === 204) return c.body(null, 204);
    return c.json(reply.body as object, reply.status as 200);
  });
  return app;
}
