// Calls the web3 proxy in-process, as the hosted page would over HTTP, and unwraps the JSON-RPC answer.
import { ChainLayerError } from '../errors.ts';

export class ProxyCallError extends ChainLayerError {
  override name = 'ProxyCallError';
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly rpcData?: unknown,
  ) {
    super(`${method} failed with JSON-RPC error ${rpcCode}: ${rpcMessage}`);
  }
}

/**
 * What the customer helpers need from the web3 proxy: JSON-RPC in, { status, body } out. chains/rpc-proxy's proxy is
 * one; the type lives here so the chain layer does not import the folder that builds on it.
 */
export interface ProxyEndpoint {
  handle(chainId: number, rawBody: string): Promise<{ status: number; body: unknown }>;
}

let nextId = 1;

export async function callProxy<T>(proxy: ProxyEndpoint, chainId: number, method: string, params: unknown[]): Promise<T> {
  const { status, body } = await proxy.handle(chainId, JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }));
  if (status !== 200) throw new ProxyCallError(method, status, JSON.stringify(body));
  const response = body as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (response.error) throw new ProxyCallError(method, response.error.code, response.error.message, response.error.data);
  return response.result as T;
}
