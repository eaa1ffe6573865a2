// The customer's injected EIP-1193 wallet. Its keys stay in the suite (a viem local account); the page sees
// `window.ethereum` (and an EIP-6963 announcement), whose requests cross into the suite through a Playwright binding.
// Signing methods are answered here; eth_sendTransaction is signed here and sent to the suite's own chain; every other
// request is forwarded to the chain's RPC as a read. Every request is logged with its outcome, for the report.
import type { BrowserContext } from 'playwright-core';
import { createClient, http, type Hex } from 'viem';
import { sendTransaction } from 'viem/actions';
import { privateKeyToAccount } from 'viem/accounts';

export interface WalletLogEntry {
  method: string;
  /** Milliseconds since the wallet was installed. */
  atMs: number;
  outcome: 'answered' | 'forwarded' | 'refused';
  /** A short, secret-free summary of the answer or the refusal. */
  detail: string;
}

export interface WalletHooks {
  /** Runs once, when the page first asks the wallet to sign or send (the operation is prepared, nothing is signed yet). */
  beforeFirstSignature?: () => Promise<void>;
}

export interface CustomerWallet {
  address: Hex;
  readonly log: WalletLogEntry[];
  /** The chain the wallet is on (eth_chainId); wallet_switchEthereumChain moves it. */
  readonly chainId: number;
}

/** Signing methods: the hook runs before the first of them. */
const SIGNING = new Set(['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction']);
/** Methods a wallet must never forward to a node on the page's behalf. */
const NEVER_FORWARDED = /^(eth_sign$|eth_signTransaction|eth_sendRawTransaction|wallet_|personal_|anvil_|evm_|hardhat_|debug_|admin_|miner_)/;

export class WalletRpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

// Plain JavaScript for the page (a string: transpiled helpers would not exist there).
const PROVIDER_SCRIPT = `(() => {
  const listeners = new Map();
  const emit = (event, value) => (listeners.get(event) || new Set()).forEach((fn) => { try { fn(value); } catch (e) {} });
  const provider = {
    isConformanceWallet: true,
    async request({ method, params }) {
      const reply = await window.__stablepayCustomerWallet(method, params === undefined ? [] : params);
      if (reply.error) { const e = new Error(reply.error.message); e.code = reply.error.code; throw e; }
      if (method === 'wallet_switchEthereumChain') emit('chainChanged', params[0].chainId);
      return reply.result;
    },
    on(event, fn) { if (!listeners.has(event)) listeners.set(event, new Set()); listeners.get(event).add(fn); return provider; },
    removeListener(event, fn) { listeners.get(event)?.delete(fn); return provider; },
  };
  window.ethereum = provider;
  const info = Object.freeze({ uuid: '6b0f4c43-3f40-4f7e-9a42-5c0e3a9d2a11', name: 'Conformance wallet', icon: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E', rdns: 'dev.stablepay.conformance' });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;

const short = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
};

/** Puts the wallet into every page of `context` before the page's own scripts run. */
export async function installWallet(context: BrowserContext, input: { privateKey: Hex; rpcUrls: ReadonlyMap<number, string>; startChainId: number; hooks?: WalletHooks }): Promise<CustomerWallet> {
  const account = privateKeyToAccount(input.privateKey);
  const started = Date.now();
  const state = { address: account.address, log: [] as WalletLogEntry[], chainId: input.startChainId };
  let hookRan: Promise<void> | undefined;
  const rpc = (chainId: number): string => {
    const url = input.rpcUrls.get(chainId);
    if (!url) throw new WalletRpcError(`Unrecognized chain ID ${chainId}`, 4902);
    return url;
  };

  async function answer(method: string, params: unknown[]): Promise<{ value: unknown; outcome: WalletLogEntry['outcome'] }> {
    if (SIGNING.has(method) && input.hooks?.beforeFirstSignature) await (hookRan ??= input.hooks.beforeFirstSignature());
    const ours = (from: unknown) => {
      if (typeof from !== 'string' || from.toLowerCase() !== account.address.toLowerCase()) throw new WalletRpcError(`The wallet does not hold account ${String(from)}`, 4100);
    };
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { value: [account.address], outcome: 'answered' };
      case 'eth_chainId':
        return { value: `0x${state.chainId.toString(16)}`, outcome: 'answered' };
      case 'net_version':
        return { value: String(state.chainId), outcome: 'answered' };
      case 'wallet_switchEthereumChain': {
        const wanted = Number.parseInt(String((params[0] as { chainId?: string } | undefined)?.chainId), 16);
        rpc(wanted);
        state.chainId = wanted;
        return { value: null, outcome: 'answered' };
      }
      case 'personal_sign': {
        const [message, from] = params as [Hex, string];
        ours(from);
        return { value: await account.signMessage({ message: { raw: message } }), outcome: 'answered' };
      }
      case 'eth_signTypedData_v4': {
        const [from, typed] = params as [string, string | Record<string, unknown>];
        ours(from);
        const data = (typeof typed === 'string' ? JSON.parse(typed) : typed) as { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> };
        const { EIP712Domain: _domain, ...types } = data.types as Record<string, never>;
        return { value: await account.signTypedData({ domain: data.domain, types, primaryType: data.primaryType, message: data.message } as never), outcome: 'answered' };
      }
      case 'eth_sendTransaction': {
        const [tx] = params as [{ from: string; to?: Hex; data?: Hex; value?: Hex; gas?: Hex }];
        ours(tx.from);
        const client = createClient({ account, transport: http(rpc(state.chainId)) });
        const hash = await sendTransaction(client, {
          chain: null,
          to: tx.to ?? null,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : undefined,
          gas: tx.gas ? BigInt(tx.gas) : undefined,
        } as never);
        return { value: hash, outcome: 'answered' };
      }
      default: {
        if (NEVER_FORWARDED.test(method)) throw new WalletRpcError(`The wallet does not support ${method}`, 4200);
        const response = await fetch(rpc(state.chainId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
        const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
        if (body.error) throw new WalletRpcError(body.error.message, body.error.code);
        return { value: body.result, outcome: 'forwarded' };
      }
    }
  }

  await context.exposeBinding('__stablepayCustomerWallet', async (_source, method: string, params: unknown[]) => {
    const atMs = Date.now() - started;
    try {
      const { value, outcome } = await answer(String(method), Array.isArray(params) ? params : []);
      state.log.push({ method: String(method), atMs, outcome, detail: short(value) });
      return { result: value };
    } catch (error) {
      const code = error instanceof WalletRpcError ? error.code : -32603;
      const message = (error as Error).message.split('\n')[0] ?? 'error';
      state.log.push({ method: String(method), atMs, outcome: 'refused', detail: `${code} ${short(message)}` });
      return { error: { code, message } };
    }
  });
  await context.addInitScript({ content: PROVIDER_SCRIPT });
  return state;
}
