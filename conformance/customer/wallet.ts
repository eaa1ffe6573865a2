// The customer's injected EIP-1193 wallet, shared by the suite's customer agent and the browser tests of e2e/. Its key
// stays in the suite (a viem local account); the page sees `window.ethereum` (and an EIP-6963 announcement), whose
// requests cross into the suite through a Playwright binding. It answers as MetaMask does: accounts and permissions,
// chain switching, personal_sign and eth_signTypedData_v4 (EIP-2612 permits among them), eth_sendTransaction signed
// here with the page's fees or the chain's (wallet-transaction.ts); every other request is forwarded to the chain's
// RPC as a read. With `fund`, the account is funded on each chain before the page can use it there. Every request is
// logged with its outcome and, when it signs or sends, what kind of thing it signed (signature-kind.ts).
import type { BrowserContext } from 'playwright-core';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { personalSignKind, typedDataKind, type SignatureKind } from './signature-kind.ts';
import { sendPageTransaction, WalletRpcError, type PageTransaction } from './wallet-transaction.ts';

export { WalletRpcError } from './wallet-transaction.ts';

export interface WalletLogEntry {
  method: string;
  /** Milliseconds since the wallet was installed. */
  atMs: number;
  outcome: 'answered' | 'forwarded' | 'refused';
  /** A short, secret-free summary of the answer or the refusal. */
  detail: string;
  /** What a signing or sending request signed (absent for reads). */
  kind?: SignatureKind;
}

export interface WalletHooks {
  /** Runs once, when the page first asks the wallet to sign or send (the operation is prepared, nothing is signed yet). */
  beforeFirstSignature?: () => Promise<void>;
}

export interface SignedRecord {
  method: string;
  kind: SignatureKind;
  /** personal_sign: the raw message; eth_signTypedData_v4: the typed data; eth_sendTransaction: the transaction hash. */
  payload: unknown;
}

export interface CustomerWallet {
  address: Hex;
  readonly log: WalletLogEntry[];
  /** Everything the wallet signed or sent, in order. */
  readonly signed: SignedRecord[];
  /** The chain the wallet is on (eth_chainId); wallet_switchEthereumChain moves it. */
  readonly chainId: number;
  /** The start chain's funding ended (done or logged as refused); the page's requests wait for it meanwhile. */
  readonly funded: Promise<void>;
  /**
   * The suite's own step before the first signature (WalletHooks) failed: the wallet refused the page's request because
   * of the suite, not of the page, so nothing the page does from here on is about the page.
   */
  readonly hookError?: Error;
}

export interface InstallWalletInput {
  privateKey: Hex;
  /** The chains the wallet knows (chainId -> RPC URL); reads are forwarded there and transactions sent there. */
  rpcUrls: ReadonlyMap<number, string>;
  startChainId: number;
  hooks?: WalletHooks;
  /** Funds the account on a chain (once per chain, before the page can use it there); returns a summary for the log. */
  fund?: (chainId: number, address: Address) => Promise<string>;
}

const SIGNING = new Set(['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction']);
/** Methods a wallet must never forward to a node on the page's behalf. */
const NEVER_FORWARDED =
  /^(eth_sign$|eth_signTransaction|eth_sendRawTransaction|wallet_|personal_|anvil_|evm_|hardhat_|debug_|admin_|miner_)/;

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
  const text =
    typeof value === 'string'
      ? value
      : (JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'undefined');
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

interface TypedData {
  domain?: Record<string, unknown>;
  types: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** Puts the wallet into every page of `context` before the page's own scripts run. */
export async function installWallet(context: BrowserContext, input: InstallWalletInput): Promise<CustomerWallet> {
  const account = privateKeyToAccount(input.privateKey);
  const started = Date.now();
  const state = {
    address: account.address,
    log: [] as WalletLogEntry[],
    signed: [] as SignedRecord[],
    chainId: input.startChainId,
    funded: Promise.resolve(),
    hookError: undefined as Error | undefined,
  };
  const funded = new Map<number, Promise<void>>();
  let hookRan: Promise<void> | undefined;
  const rpc = (chainId: number): string => {
    const url = input.rpcUrls.get(chainId);
    if (!url) throw new WalletRpcError(`Unrecognized chain ID ${chainId}`, 4902);
    return url;
  };
  const ours = (from: unknown): void => {
    if (typeof from !== 'string' || from.toLowerCase() !== account.address.toLowerCase())
      throw new WalletRpcError(`The wallet does not hold account ${String(from)}`, 4100);
  };
  const permissions = () => [
    { parentCapability: 'eth_accounts', caveats: [{ type: 'restrictReturnedAccounts', value: [account.address] }] },
  ];

  /** Funds the account on `chainId` once; a failure is logged, never thrown (the page then meets an unfunded wallet). */
  const fundOn = (chainId: number): Promise<void> => {
    const fund = input.fund;
    if (!fund || !input.rpcUrls.has(chainId)) return Promise.resolve();
    let done = funded.get(chainId);
    if (!done) {
      const atMs = Date.now() - started;
      done = fund(chainId, account.address).then(
        (detail) => void state.log.push({ method: 'suite_fundAccount', atMs, outcome: 'answered', detail: `chain ${chainId}: ${detail}` }),
        (error: unknown) =>
          void state.log.push({
            method: 'suite_fundAccount',
            atMs,
            outcome: 'refused',
            detail: `chain ${chainId}: ${short((error as Error).message.split('\n')[0])}`,
          }),
      );
      funded.set(chainId, done);
    }
    return done;
  };

  async function answer(
    method: string,
    params: unknown[],
  ): Promise<{ value: unknown; outcome: WalletLogEntry['outcome']; kind?: SignatureKind; detail?: string }> {
    if (SIGNING.has(method) && input.hooks?.beforeFirstSignature)
      await (hookRan ??= input.hooks.beforeFirstSignature().catch((error: unknown) => {
        state.hookError = error instanceof Error ? error : new Error(String(error));
        throw new WalletRpcError(`the suite's own step before signing failed: ${state.hookError.message.split('\n')[0]}`, -32603);
      }));
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { value: [account.address], outcome: 'answered' };
      case 'wallet_requestPermissions':
      case 'wallet_getPermissions':
        return { value: permissions(), outcome: 'answered' };
      case 'wallet_revokePermissions':
        return { value: null, outcome: 'answered' };
      case 'eth_chainId':
        return { value: `0x${state.chainId.toString(16)}`, outcome: 'answered' };
      case 'net_version':
        return { value: String(state.chainId), outcome: 'answered' };
      case 'wallet_addEthereumChain':
      case 'wallet_switchEthereumChain': {
        const wanted = Number.parseInt(String((params[0] as { chainId?: string } | undefined)?.chainId), 16);
        rpc(wanted);
        if (method === 'wallet_switchEthereumChain') {
          await fundOn(wanted);
          state.chainId = wanted;
        }
        return { value: null, outcome: 'answered' };
      }
      case 'personal_sign': {
        // MetaMask accepts [message, address] and, from older libraries, [address, message].
        const swapped =
          typeof params[0] === 'string' &&
          params[0].toLowerCase() === account.address.toLowerCase() &&
          typeof params[1] === 'string' &&
          params[1].toLowerCase() !== account.address.toLowerCase();
        const [message, from] = (swapped ? [params[1], params[0]] : params) as [string, string];
        ours(from);
        const raw = /^0x([0-9a-fA-F]{2})*$/.test(message) ? { raw: message as Hex } : message;
        const kind = personalSignKind(message);
        state.signed.push({ method, kind, payload: message });
        return { value: await account.signMessage({ message: raw }), outcome: 'answered', kind };
      }
      case 'eth_signTypedData_v4': {
        const [from, typed] = params as [string, string | TypedData];
        ours(from);
        const data = (typeof typed === 'string' ? JSON.parse(typed) : typed) as TypedData;
        const domain = { ...data.domain };
        if (domain.chainId !== undefined) {
          // MetaMask refuses typed data for another chain than the one it is on.
          const chainId = BigInt(domain.chainId as string | number);
          if (chainId !== BigInt(state.chainId))
            throw new WalletRpcError(`Provided chainId "${chainId}" must match the active chainId "${state.chainId}"`, -32602);
          domain.chainId = chainId;
        }
        const { EIP712Domain: _domain, ...types } = data.types as Record<string, never>;
        const kind = typedDataKind(data.primaryType);
        state.signed.push({ method, kind, payload: data });
        const signature = await account.signTypedData({ domain, types, primaryType: data.primaryType, message: data.message } as never);
        return { value: signature, outcome: 'answered', kind };
      }
      case 'eth_sendTransaction': {
        const [tx] = params as [PageTransaction];
        ours(tx?.from);
        await fundOn(state.chainId);
        const sent = await sendPageTransaction({ account, rpcUrl: rpc(state.chainId), chainId: state.chainId, tx });
        state.signed.push({ method, kind: 'transaction', payload: sent.hash });
        return { value: sent.hash, outcome: 'answered', kind: 'transaction', detail: sent.summary };
      }
      default: {
        if (NEVER_FORWARDED.test(method)) throw new WalletRpcError(`The wallet does not support ${method}`, 4200);
        const response = await fetch(rpc(state.chainId), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
        if (body.error) throw new WalletRpcError(body.error.message, body.error.code);
        return { value: body.result, outcome: 'forwarded' };
      }
    }
  }

  // Funded while the page opens, not before: every request of the page waits for its chain's funding.
  state.funded = fundOn(input.startChainId);
  await context.exposeBinding('__stablepayCustomerWallet', async (_source, method: string, params: unknown[]) => {
    const atMs = Date.now() - started;
    try {
      await fundOn(state.chainId);
      const reply = await answer(String(method), Array.isArray(params) ? params : []);
      state.log.push({
        method: String(method),
        atMs,
        outcome: reply.outcome,
        detail: reply.detail ?? short(reply.value),
        ...(reply.kind ? { kind: reply.kind } : {}),
      });
      return { result: reply.value };
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
