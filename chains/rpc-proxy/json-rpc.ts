// JSON-RPC 2.0 envelopes: parse a raw body into requests (single or batch) or the error the spec prescribes.
import { RPC } from '../index.ts';

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  id: JsonRpcId;
  /** False for notifications (no `id` member): executed, never answered. */
  hasId: boolean;
  method: string;
  params: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: { code: number; message: string; data?: unknown };
}

export interface JsonRpcSuccessResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

export const MAX_BATCH = 100;
export const MAX_BODY_BYTES = 1_000_000;

export const errorResponse = (id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcErrorResponse => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

export type ParsedBody =
  | { kind: 'single'; request: JsonRpcRequest | JsonRpcErrorResponse }
  | { kind: 'batch'; requests: (JsonRpcRequest | JsonRpcErrorResponse)[] }
  | { kind: 'error'; response: JsonRpcErrorResponse };

const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** One element: a request, or the -32600 response it earns. */
export function toRequest(value: unknown): JsonRpcRequest | JsonRpcErrorResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC request object');
  }
  const obj = value as Record<string, unknown>;
  const hasId = Object.hasOwn(obj, 'id');
  const id = hasId && isId(obj.id) ? obj.id : null;
  if (hasId && !isId(obj.id)) return errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: id must be a string, a number or null');
  if (obj.jsonrpc !== '2.0') return errorResponse(id, RPC.INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  if (typeof obj.method !== 'string' || obj.method === '')
    return errorResponse(id, RPC.INVALID_REQUEST, 'Invalid Request: method must be a non-empty string');
  if (obj.params !== undefined && (typeof obj.params !== 'object' || obj.params === null)) {
    return errorResponse(id, RPC.INVALID_REQUEST, 'Invalid Request: params must be an array or an object');
  }
  return { id, hasId, method: obj.method, params: obj.params ?? [] };
}

export function parseBody(rawBody: string): ParsedBody {
  if (typeof rawBody !== 'string')
    return { kind: 'error', response: errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: empty body') };
  if (rawBody.length > MAX_BODY_BYTES) {
    return {
      kind: 'error',
      response: errorResponse(null, RPC.INVALID_REQUEST, `Invalid Request: body larger than ${MAX_BODY_BYTES} bytes`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return { kind: 'error', response: errorResponse(null, RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON') };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: 'error', response: errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: empty batch') };
    if (value.length > MAX_BATCH) {
      return {
        kind: 'error',
        response: errorResponse(null, RPC.INVALID_REQUEST, `Invalid Request: batch of ${value.length} exceeds ${MAX_BATCH} calls`),
      };
    }
    return { kind: 'batch', requests: value.map(toRequest) };
  }
  return { kind: 'single', request: toRequest(value) };
}

export const isErrorResponse = (value: JsonRpcRequest | JsonRpcErrorResponse): value is JsonRpcErrorResponse => 'error' in value;
