// The web3 proxy's answer when the simulator runs without chains: requests are parsed and shaped as JSON-RPC 2.0
// says, and every well-formed one gets -32000 "no node is attached", so a client learns why rather than timing out.
import type { Web3ProxyResponse } from '@stablepay/chains/rpc-proxy';

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });

/** The answer when no chain node is attached: parse and shape errors as JSON-RPC says, then -32000. */
export function detachedChainResponse(chainId: number, rawBody: string): Web3ProxyResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { status: 200, body: rpcError(null, -32700, 'Parse error') };
  }
  const answer = (request: unknown) => {
    const valid =
      typeof request === 'object' &&
      request !== null &&
      !Array.isArray(request) &&
      (request as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
      typeof (request as { method?: unknown }).method === 'string';
    const id = valid ? (request as { id?: unknown }).id : null;
    return valid
      ? rpcError(id, -32000, `No node is attached for chain ${chainId} in this simulator run`)
      : rpcError(null, -32600, 'Invalid Request');
  };
  if (Array.isArray(parsed)) {
    return { status: 200, body: parsed.length === 0 ? rpcError(null, -32600, 'Invalid Request') : parsed.map(answer) };
  }
  return { status: 200, body: answer(parsed) };
}
