// The customer's one signature: SimpleAccount v0.7 validates an EIP-191 signature over the user
// operation hash, so both wallets sign the raw 32-byte hash as a message (personal_sign).
import { createWalletClient, custom, getAddress, type EIP1193Provider, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export type Signer =
  | { kind: 'embedded'; privateKey: Hex; address: Hex; label: string }
  | { kind: 'injected'; provider: EIP1193Provider; address: Hex; label: string };

export function embeddedSigner(email: string, privateKey: Hex): Signer {
  const account = privateKeyToAccount(privateKey);
  return { kind: 'embedded', privateKey, address: account.address, label: email };
}

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

export function injectedProvider(): EIP1193Provider | undefined {
  return typeof window.ethereum?.request === 'function' ? window.ethereum : undefined;
}

/** Ask the injected wallet for its account (opens the wallet's connect prompt). */
export async function connectInjected(provider: EIP1193Provider): Promise<Signer> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  const first = accounts[0];
  if (!first) throw new Error('The wallet shared no account');
  const address = getAddress(first);
  return { kind: 'injected', provider, address, label: 'browser wallet' };
}

export async function signUserOperationHash(signer: Signer, userOpHash: Hex): Promise<Hex> {
  if (signer.kind === 'embedded') return privateKeyToAccount(signer.privateKey).signMessage({ message: { raw: userOpHash } });
  const wallet = createWalletClient({ account: signer.address, transport: custom(signer.provider) });
  return wallet.signMessage({ account: signer.address, message: { raw: userOpHash } });
}
