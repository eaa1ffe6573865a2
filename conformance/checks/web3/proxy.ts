// POST /v1/web3/{chainId}: unknown chains are 404; malformed JSON is -32700 and a non-request
// -32600 (HTTP 200, JSON-RPC error); batches answer per element; eth_chainId answers the chain's own
// id; cheat and signing methods (anvil_*, evm_*, eth_sendTransaction, ...) never execute and are
// refused naming the method. When no allowed read answers either (no node behind the proxy), the
// refusals cannot be told apart from an outage: those cases are then reported as not judged.
import type { ErrorBody, JsonRpcFailure, JsonRpcSuccess } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpResponse } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import type { Received } from '../../received.ts';

const CHAINS = [1, 42161, 8453, 137, 56];
const REFUSED = [
  'anvil_setBalance',
  'evm_increaseTime',
  'evm_mine',
  'hardhat_setBalance',
  'debug_traceTransaction',
  'eth_sendTransaction',
  'eth_sign',
  'personal_sign',
];

/** A JSON-RPC reply as received: either a success or a failure, so both sets of fields are optional. */
type RpcReply = Received<JsonRpcSuccess> & Received<JsonRpcFailure>;

function rpc(ctx: CheckContext, chainId: number | string, body: unknown | string): Promise<HttpResponse> {
  return ctx.api.request({
    method: 'POST',
    path: `/v1/web3/${chainId}`,
    ...(typeof body === 'string' ? { body, headers: { 'content-type': 'application/json' } } : { json: body }),
  });
}

function expectRpcError(ctx: CheckContext, response: HttpResponse, code: number, requirement: string, what: string): void {
  ctx.addCases();
  const reply = response.json as RpcReply | undefined;
  ctx.expect(
    response.status === 200 && reply?.jsonrpc === '2.0' && reply.error?.code === code && !('result' in (reply ?? {})),
    requirement,
    `${what} is not answered with JSON-RPC error ${code}`,
    () => `HTTP ${response.status}: ${response.text.slice(0, 200)}`,
    response.exchange,
  );
}

export const web3Proxy = defineCheck({
  id: 'web3.json-rpc-proxy',
  title: 'The web3 proxy: unknown chain 404, JSON-RPC parse/request errors, eth_chainId, refused cheat and signing methods',
  requirements: [
    'WEB3-PROXY-ENDPOINT',
    'CHAIN-SET',
    'PAY-API-KEY-SCOPE',
    'WEB3-UNKNOWN-CHAIN-404',
    'WEB3-PARSE-ERROR',
    'WEB3-INVALID-REQUEST',
    'WEB3-JSON-RPC-2',
    'WEB3-METHOD-REFUSED',
    'WEB3-ALLOWED-METHODS',
    'ERR-BODY-SHAPE-OTHER-STATUSES',
  ],
  level: 'documented',
  needs: [],
  tags: ['web3', 'negative'],
  async run(ctx: CheckContext) {
    for (const chainId of [999, 10, 0]) {
      const unknown = await rpc(ctx, chainId, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
      ctx.addCases();
      ctx.expect(
        unknown.status === 404,
        'WEB3-UNKNOWN-CHAIN-404',
        `An unsupported chainId (${chainId}) is not 404`,
        `answered ${unknown.status}: ${unknown.text.slice(0, 200)}`,
        unknown.exchange,
      );
      const body = unknown.json as Received<ErrorBody> | undefined;
      if (unknown.status === 404)
        ctx.expect(
          body?.statusCode === 404 && body.error === 'Not Found',
          'ERR-BODY-SHAPE-OTHER-STATUSES',
          'The unknown-chain 404 has no error body',
          () => unknown.text.slice(0, 200),
          unknown.exchange,
        );
    }
    let nodesAnswer = 0;
    for (const chainId of CHAINS) {
      const response = await rpc(ctx, chainId, { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] });
      ctx.addCases();
      ctx.require(
        response.status === 200,
        'WEB3-PROXY-ENDPOINT',
        `The proxy of supported chain ${chainId} is not served`,
        `answered ${response.status}: ${response.text.slice(0, 200)}`,
        response.exchange,
      );
      // The merchant's API key drives the proxy.
      ctx.judged('PAY-API-KEY-SCOPE');
      const reply = response.json as RpcReply | undefined;
      ctx.expect(
        reply?.jsonrpc === '2.0' && reply.id === 7,
        'WEB3-JSON-RPC-2',
        'The reply is not a JSON-RPC 2.0 response with the request id',
        () => response.text.slice(0, 200),
        response.exchange,
      );
      if (reply && 'result' in reply) {
        nodesAnswer++;
        ctx.expect(
          typeof reply.result === 'string' && Number.parseInt(reply.result, 16) === chainId,
          'CHAIN-SET',
          `eth_chainId on /v1/web3/${chainId} answers another chain`,
          `result ${JSON.stringify(reply.result)}`,
          response.exchange,
        );
      }
    }
    expectRpcError(ctx, await rpc(ctx, 8453, '{"jsonrpc":"2.0","id":1,"method":'), -32700, 'WEB3-PARSE-ERROR', 'Malformed JSON');
    expectRpcError(
      ctx,
      await rpc(ctx, 8453, { id: 1, params: [] }),
      -32600,
      'WEB3-INVALID-REQUEST',
      'A request without jsonrpc and method',
    );
    expectRpcError(
      ctx,
      await rpc(ctx, 8453, { jsonrpc: '2.0', id: 1, method: 42 }),
      -32600,
      'WEB3-INVALID-REQUEST',
      'A request whose method is not a string',
    );
    expectRpcError(ctx, await rpc(ctx, 8453, []), -32600, 'WEB3-INVALID-REQUEST', 'An empty batch');

    const batch = await rpc(ctx, 137, [
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 'b', method: 'eth_sendTransaction', params: [{}] },
      { nope: true },
    ]);
    ctx.addCases();
    const replies = batch.json as RpcReply[] | undefined;
    ctx.expect(
      batch.status === 200 && Array.isArray(replies) && replies.length === 3,
      'WEB3-JSON-RPC-2',
      'A batch of three is not answered with three replies',
      () => `HTTP ${batch.status}: ${batch.text.slice(0, 300)}`,
      batch.exchange,
    );
    if (Array.isArray(replies)) {
      const b = replies.find((r) => r?.id === 'b');
      ctx.expect(
        b !== undefined && !('result' in b) && b.error !== undefined,
        'WEB3-METHOD-REFUSED',
        'eth_sendTransaction inside a batch is not refused',
        () => batch.text.slice(0, 300),
        batch.exchange,
      );
      ctx.expect(
        replies.some((r) => r?.error?.code === -32600),
        'WEB3-INVALID-REQUEST',
        'An invalid element of a batch is not answered with -32600',
        () => batch.text.slice(0, 300),
        batch.exchange,
      );
    }

    for (const method of REFUSED) {
      const response = await rpc(ctx, 1, { jsonrpc: '2.0', id: 3, method, params: [] });
      ctx.addCases();
      const reply = response.json as RpcReply | undefined;
      ctx.expect(
        response.status === 200 && reply?.error !== undefined && !('result' in (reply ?? {})),
        'WEB3-METHOD-REFUSED',
        `${method} is not refused`,
        () => `HTTP ${response.status}: ${response.text.slice(0, 200)}`,
        response.exchange,
      );
      // Only a proxy whose allowed reads answer shows that a refusal is a refusal and not an outage.
      if (nodesAnswer > 0) {
        ctx.expect(
          (reply?.error?.code === -32000 || reply?.error?.code === -32601) && String(reply?.error?.message ?? '').includes(method),
          'WEB3-METHOD-REFUSED',
          `The refusal of ${method} does not name the method`,
          () => response.text.slice(0, 200),
          response.exchange,
        );
      }
    }
    if (nodesAnswer > 0) {
      const read = await rpc(ctx, 1, { jsonrpc: '2.0', id: 4, method: 'eth_blockNumber', params: [] });
      ctx.addCases();
      ctx.expect(
        typeof (read.json as RpcReply | undefined)?.result === 'string',
        'WEB3-ALLOWED-METHODS',
        'An allowed read (eth_blockNumber) is refused',
        () => read.text.slice(0, 200),
        read.exchange,
      );
    } else {
      ctx.progress('no allowed read answered (no node behind the proxy): refusal messages and eth_chainId values not judged');
    }
  },
});
