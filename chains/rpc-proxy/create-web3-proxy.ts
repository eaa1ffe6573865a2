// The web3 proxy behind POST /v1/web3/{chainId}: JSON-RPC 2.0 (single or batch) for the checkout — reads pass
// through to the chain, fee queries come from the chain's gas price, ERC-4337 methods go to the simulator's bundler,
// and node-control or direct-write methods are refused by name. Framework-agnostic: the HTTP layer passes the raw
// body and sends back { status, body }. It never throws: every failure is a JSON-RPC error object (or the 404 for
// an unknown chain).
import { isAddressEqual, isHex, numberToHex, type Hex } from 'viem';
import {
  createBundler,
  ENTRY_POINT_ADDRESS,
  getUserOperationByHashView,
  getUserOperationReceiptView,
  invalidParams,
  parseUserOperation,
  RPC,
  RpcError,
  type Bundler,
  type BundlerHooks,
  type BundlerOptions,
  type ChainHandle,
  type ChainNetwork,
  type UserOperationSettlement,
} from '../index.ts';
import { errorResponse, isErrorResponse, parseBody, type JsonRpcRequest, type JsonRpcResponse } from './json-rpc.ts';
import { routeMethod } from './method-policy.ts';

export type Web3ProxyHooks = BundlerHooks;

export interface Web3ProxyResponse {
  status: number;
  body: unknown;
}

export interface Web3Proxy {
  /** `context` travels to the bundler's admission hook with every eth_sendUserOperation of the request. */
  handle(chainId: number, rawBody: string, context?: unknown): Promise<Web3ProxyResponse>;
  readonly bundler: Bundler;
  /** Settlement of an operation this proxy accepted (resolves at once if already settled). */
  waitForSettlement(chainId: number, userOpHash: Hex): Promise<UserOperationSettlement>;
}

function paramList(params: unknown, min: number, method: string): unknown[] {
  if (!Array.isArray(params) || params.length < min)
    throw invalidParams(`${method} expects ${min === 1 ? 'one parameter' : `${min} parameters`} in a params array`);
  return params;
}

function entryPointParam(value: unknown): void {
  if (typeof value !== 'string' || !isHex(value) || value.length !== 42 || !isAddressEqual(value, ENTRY_POINT_ADDRESS)) {
    throw invalidParams(
      `EntryPoint ${JSON.stringify(value)?.slice(0, 60)} is not supported; this bundler serves ${ENTRY_POINT_ADDRESS} (v0.7)`,
    );
  }
}

function hashParam(value: unknown): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw invalidParams('expected a 32-byte user operation hash');
  return value as Hex;
}

export function createWeb3Proxy(network: ChainNetwork, hooks: Web3ProxyHooks = {}, options: BundlerOptions = {}): Web3Proxy {
  const bundler = createBundler(network, hooks, options);

  async function dispatch(handle: ChainHandle, request: JsonRpcRequest, context: unknown): Promise<unknown> {
    const { method, params } = request;
    switch (routeMethod(method)) {
      case 'refused':
        throw new RpcError(
          RPC.METHOD_NOT_ALLOWED,
          `Method ${method} is not allowed through the web3 proxy: it would write to or control the chain. Send an ERC-4337 user operation (eth_sendUserOperation) instead.`,
        );
      case 'unknown':
        throw new RpcError(RPC.METHOD_NOT_FOUND, `Method not found: ${method} is not served by the web3 proxy`);
      case 'fees':
        return numberToHex(handle.gasPriceWei);
      case 'pass-through': {
        const res = await handle.rawRequest(method, params);
        if (res.error) throw new RpcError(res.error.code, res.error.message, res.error.data);
        return res.result;
      }
      case 'bundler':
        break;
    }
    switch (method) {
      case 'eth_supportedEntryPoints':
        return [ENTRY_POINT_ADDRESS];
      case 'eth_sendUserOperation': {
        const [op, entryPoint] = paramList(params, 2, method);
        entryPointParam(entryPoint);
        return bundler.sendUserOperation(handle.chainId, parseUserOperation(op), context);
      }
      case 'eth_estimateUserOperationGas': {
        const [op, entryPoint, overrides] = paramList(params, 2, method);
        entryPointParam(entryPoint);
        if (overrides !== undefined && overrides !== null && Object.keys(overrides as object).length > 0) {
          throw invalidParams('state overrides are not supported by this bundler');
        }
        const gas = await bundler.estimateUserOperationGas(handle.chainId, parseUserOperation(op, { forEstimation: true }));
        return Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, numberToHex(v as bigint)]));
      }
      case 'eth_getUserOperationReceipt':
        return getUserOperationReceiptView(bundler, handle, hashParam(paramList(params, 1, method)[0]));
      case 'eth_getUserOperationByHash':
        return getUserOperationByHashView(bundler, handle, hashParam(paramList(params, 1, method)[0]));
      default:
        throw new RpcError(RPC.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  }

  async function answer(handle: ChainHandle, request: JsonRpcRequest, context: unknown): Promise<JsonRpcResponse> {
    try {
      return { jsonrpc: '2.0', id: request.id, result: await dispatch(handle, request, context) };
    } catch (error) {
      if (error instanceof RpcError) return { jsonrpc: '2.0', id: request.id, error: error.toJSON() };
      return errorResponse(request.id, RPC.INTERNAL_ERROR, `Internal error: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  async function handle(chainId: number, rawBody: string, context?: unknown): Promise<Web3ProxyResponse> {
    const chain = Number.isSafeInteger(chainId) ? network.chains.get(chainId) : undefined;
    if (!chain) return { status: 404, body: { statusCode: 404, message: `Unknown chainId ${chainId}`, error: 'Not Found' } };
    try {
      const parsed = parseBody(rawBody);
      if (parsed.kind === 'error') return { status: 200, body: parsed.response };
      if (parsed.kind === 'single') {
        if (isErrorResponse(parsed.request)) return { status: 200, body: parsed.request };
        const response = await answer(chain, parsed.request, context);
        return parsed.request.hasId ? { status: 200, body: response } : { status: 204, body: null };
      }
      const responses = await Promise.all(
        parsed.requests.map(async (r) =>
          isErrorResponse(r) ? r : r.hasId ? answer(chain, r, context) : answer(chain, r, context).then(() => undefined),
        ),
      );
      const body = responses.filter((r) => r !== undefined);
      return body.length > 0 ? { status: 200, body } : { status: 204, body: null };
    } catch (error) {
      return {
        status: 200,
        body: errorResponse(null, RPC.INTERNAL_ERROR, `Internal error: ${(error as Error)?.message ?? String(error)}`),
      };
    }
  }

  return { handle, bundler, waitForSettlement: (chainId, hash) => bundler.waitForSettlement(chainId, hash) };
}
