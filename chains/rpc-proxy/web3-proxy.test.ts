import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_POINT_ADDRESS, startChainNetwork, type ChainNetwork } from '../index.ts';
import { createWeb3Proxy, type Web3Proxy } from './create-web3-proxy.ts';

interface RpcBody {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

const call = async (proxy: Web3Proxy, chainId: number, method: string, params: unknown = [], id: unknown = 1): Promise<RpcBody> => {
  const res = await proxy.handle(chainId, JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  expect(res.status).toBe(200);
  return res.body as RpcBody;
};

const isRpcResponse = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const body = value as RpcBody;
  if (body.jsonrpc !== '2.0' || !('id' in body)) return false;
  if ('error' in body)
    return typeof body.error?.code === 'number' && Number.isInteger(body.error.code) && typeof body.error.message === 'string';
  return 'result' in body;
};

describe('web3 proxy', () => {
  let network: ChainNetwork;
  let proxy: Web3Proxy;
  beforeAll(async () => {
    network = await startChainNetwork({ chains: [1, 8453] });
    proxy = createWeb3Proxy(network);
  });
  afterAll(() => network?.stop());

  it('answers 404 with the error body for a chain it does not serve', async () => {
    for (const chainId of [999, 56, Number.NaN, -1, 1.5]) {
      const res = await proxy.handle(chainId, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: `Unknown chainId ${chainId}`, error: 'Not Found' });
    }
  });

  it('passes reads through to the chain', async () => {
    expect((await call(proxy, 8453, 'eth_chainId')).result).toBe('0x2105');
    expect((await call(proxy, 1, 'net_version')).result).toBe('1');
    expect((await call(proxy, 1, 'web3_clientVersion')).result).toMatch(/anvil/i);
    expect(BigInt((await call(proxy, 1, 'eth_blockNumber')).result as string)).toBeGreaterThan(0n);
    const code = await call(proxy, 1, 'eth_getCode', [ENTRY_POINT_ADDRESS, 'latest']);
    expect((code.result as string).length).toBeGreaterThan(1000);
  });

  it('keeps the id (string, number or null) and answers batches in order', async () => {
    expect((await call(proxy, 1, 'eth_chainId', [], 'abc')).id).toBe('abc');
    expect((await call(proxy, 1, 'eth_chainId', [], null)).id).toBeNull();
    const res = await proxy.handle(
      1,
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'anvil_mine' },
        { jsonrpc: '1.0', id: 3, method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 4, method: 'eth_supportedEntryPoints' },
      ]),
    );
    expect(res.status).toBe(200);
    const body = res.body as RpcBody[];
    expect(body.map((b) => b.id)).toEqual([1, 2, 3, 4]);
    expect(body[0]!.result).toBe('0x1');
    expect(body[1]!.error?.code).toBe(-32000);
    expect(body[2]!.error?.code).toBe(-32600);
    expect(body[3]!.result).toEqual([ENTRY_POINT_ADDRESS]);
  });

  it('answers notifications with nothing (204)', async () => {
    expect(await proxy.handle(1, JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }))).toEqual({ status: 204, body: null });
  });

  it('reports the chain gas price as the fee (the chains have a base fee of 0)', async () => {
    const price = `0x${network.chain(1).gasPriceWei.toString(16)}`;
    expect((await call(proxy, 1, 'eth_gasPrice')).result).toBe(price);
    expect((await call(proxy, 1, 'eth_maxPriorityFeePerGas')).result).toBe(price);
  });

  const REFUSED = [
    'anvil_mine',
    'anvil_setBalance',
    'evm_mine',
    'evm_setNextBlockTimestamp',
    'hardhat_impersonateAccount',
    'debug_traceTransaction',
    'personal_sign',
    'admin_nodeInfo',
    'miner_start',
    'eth_sendTransaction',
    'eth_sendRawTransaction',
    'eth_sign',
    'eth_signTypedData_v4',
    'eth_signTransaction',
  ];
  it.each(REFUSED)('refuses %s with an error naming it', async (method) => {
    const body = await call(proxy, 1, method, []);
    expect(body.error?.code).toBe(-32000);
    expect(body.error?.message).toContain(method);
  });

  it('answers unknown methods with -32601 naming them', async () => {
    for (const method of ['eth_foo', 'trace_block', 'txpool_content', 'otterscan_getApiLevel']) {
      const body = await call(proxy, 1, method);
      expect(body.error).toMatchObject({ code: -32601 });
      expect(body.error?.message).toContain(method);
    }
  });

  it('answers malformed JSON with -32700 and invalid requests with -32600', async () => {
    // The id is echoed when it can be read, else null (JSON-RPC 2.0 section 5).
    const cases: [string, number, unknown?][] = [
      ['{"jsonrpc":"2.0",', -32700],
      ['', -32700],
      ['[]', -32600],
      ['42', -32600],
      ['"eth_chainId"', -32600],
      ['null', -32600],
      ['{"jsonrpc":"2.0","id":1}', -32600, 1],
      ['{"jsonrpc":"2.0","id":1,"method":7}', -32600, 1],
      ['{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}', -32600],
      ['{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":"x"}', -32600, 1],
      ['{"id":1,"method":"eth_chainId"}', -32600, 1],
      [JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }))), -32600],
    ];
    for (const [raw, code, id = null] of cases) {
      const res = await proxy.handle(1, raw);
      expect(res.status, raw).toBe(200);
      expect((res.body as RpcBody).error?.code, raw).toBe(code);
      expect((res.body as RpcBody).id, raw).toBe(id);
    }
  });

  it('validates ERC-4337 parameters with -32602', async () => {
    const badOps: unknown[][] = [
      [],
      [{}, ENTRY_POINT_ADDRESS],
      [{ sender: '0x1234', nonce: '0x0', callData: '0x' }, ENTRY_POINT_ADDRESS],
      [{ sender: ENTRY_POINT_ADDRESS, nonce: '0x0', callData: '0x', initCode: '0x' }, ENTRY_POINT_ADDRESS],
      [{ sender: ENTRY_POINT_ADDRESS, nonce: 'zero', callData: '0x' }, ENTRY_POINT_ADDRESS],
      [{ sender: ENTRY_POINT_ADDRESS, nonce: '0x0', callData: '0x' }, '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'],
    ];
    for (const params of badOps) {
      for (const method of ['eth_sendUserOperation', 'eth_estimateUserOperationGas']) {
        const body = await call(proxy, 1, method, params);
        expect(body.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
      }
    }
    expect((await call(proxy, 1, 'eth_getUserOperationReceipt', ['0x1234'])).error?.code).toBe(-32602);
    expect((await call(proxy, 1, 'eth_getUserOperationReceipt', [`0x${'ab'.repeat(32)}`])).result).toBeNull();
    expect((await call(proxy, 1, 'eth_getUserOperationByHash', [`0x${'ab'.repeat(32)}`])).result).toBeNull();
  });

  it('never throws: random bodies get a JSON-RPC response, 204 or 404', async () => {
    const methods = fc.oneof(
      fc.constantFrom(
        'eth_chainId',
        'eth_call',
        'eth_getBalance',
        'eth_sendUserOperation',
        'eth_estimateUserOperationGas',
        'eth_getUserOperationReceipt',
        'anvil_mine',
        'evm_snapshot',
        'debug_x',
        'eth_sendRawTransaction',
      ),
      fc.string(),
    );
    const request = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.anything()),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.anything()),
        method: fc.oneof(methods, fc.anything()),
        params: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.jsonValue(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.string(),
      fc.json(),
      request.map((r) => safeStringify(r)),
      fc.array(request, { maxLength: 4 }).map((r) => safeStringify(r)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(1, 8453, 999), body, async (chainId, raw) => {
        const res = await proxy.handle(chainId, raw);
        if (chainId === 999) return res.status === 404;
        if (res.status === 204) return res.body === null;
        if (res.status !== 200) return false;
        return Array.isArray(res.body) ? res.body.length > 0 && res.body.every(isRpcResponse) : isRpcResponse(res.body);
      }),
      { numRuns: 300 },
    );
  });
});

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
  } catch {
    return '{}';
  }
}
