// POST /v1/web3/{chainId}: the HTTP side of the web3 proxy. The proxy (create-web3-proxy.ts) plugs in
// through `handler`; until it does (or when the simulator runs without chains) known chains answer
// with JSON-RPC errors saying no node is attached (detached-chain-response.ts). Unknown chainIds are 404.
import { Hono } from 'hono';
import { findChain } from '@stablepay/contract/chain-table';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { readBodyText } from '../http/json-body.ts';
import type { Web3Caller, Web3Handler } from '../../core/customer/web3-handler.ts';
import { detachedChainResponse } from './detached-chain-response.ts';

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
