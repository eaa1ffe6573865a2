// An injected EIP-1193 wallet for the browser tests: page.addInitScript puts window.ethereum in
// place before the page's script runs; personal_sign is answered by a viem local account in the
// test process (through page.exposeFunction), as an extension would answer from its own keystore.
import type { Page } from 'playwright-core';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export interface InjectedWallet {
  address: Hex;
  /** Every request the page made, in order (method names). */
  readonly requests: string[];
  /** The raw messages the page asked the wallet to sign. */
  readonly signed: Hex[];
}

// Plain JavaScript (a string, not a serialised function: TypeScript transforms would add helpers
// that do not exist in the page).
const PROVIDER_SCRIPT = `(() => {
  const listeners = new Map();
  window.ethereum = {
    isTestWallet: true,
    request: ({ method, params }) => window.__testWalletRequest(method, params ?? []),
    on(event, fn) { if (!listeners.has(event)) listeners.set(event, new Set()); listeners.get(event).add(fn); },
    removeListener(event, fn) { listeners.get(event)?.delete(fn); },
  };
})();`;

export async function installInjectedWallet(page: Page, privateKey: Hex): Promise<InjectedWallet> {
  const account = privateKeyToAccount(privateKey);
  const wallet: InjectedWallet = { address: account.address, requests: [], signed: [] };
  await page.exposeFunction('__testWalletRequest', async (method: string, params: unknown[]) => {
    wallet.requests.push(method);
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return '0x89';
      case 'personal_sign': {
        const [message, from] = params as [Hex, Hex];
        if (from.toLowerCase() !== account.address.toLowerCase()) throw new Error(`personal_sign for unknown account ${from}`);
        wallet.signed.push(message);
        return account.signMessage({ message: { raw: message } });
      }
      default:
        throw new Error(`test wallet: unsupported method ${method}`);
    }
  });
  await page.addInitScript({ content: PROVIDER_SCRIPT });
  return wallet;
}
