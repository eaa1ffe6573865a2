// Test helpers for the chain-backed simulator: a harness on a shared, already running chain network (one network per
// test file; every simulator on it is cheap), and the customer's real path — sign in at the checkout, prepare, sign
// the userOpHash, POST eth_sendUserOperation to /v1/web3/{chainId} with the checkout token — plus a wait for the
// payment to leave PROCESSING.
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { SimulatorOptions } from '../runtime/app.ts';
import type { ChainNetwork } from '@stablepay/chains';
import type { CheckoutService, PreparedUserOperation } from '../core/checkout/index.ts';
import { createHarness, type Harness, type TestResponse } from './harness.ts';

export interface ChainHarness extends Harness {
  network: ChainNetwork;
  checkout: CheckoutService;
  /** POST /v1/web3/{chainId} with a JSON-RPC body, authorised by `key` (a checkout token or an API key). */
  rpc(chainId: number, method: string, params: unknown[], key: string | null): Promise<TestResponse>;
  /** The customer's path from sign-in to eth_sendUserOperation; answers the proxy's JSON-RPC reply. */
  pay(paymentId: string, pair: { chainId: number; token: string }, email?: string): Promise<CustomerPayment>;
  /** Poll GET /v1/payments/{id} until its status is not ACTIVE/PROCESSING (real time, bounded). */
  settled(paymentId: string): Promise<TestResponse>;
}

export interface CustomerPayment {
  checkoutToken: string;
  prepared: PreparedUserOperation;
  signed: Record<string, unknown>;
  reply: TestResponse;
}

/** A harness (frozen virtual clock at TEST_START, recording webhooks) whose payments settle on `network`. */
export function createChainHarness(network: ChainNetwork, options: SimulatorOptions = {}): ChainHarness {
  const h = createHarness({ chainNetwork: network, bundleDelayMs: 0, ...options });
  const checkout = h.sim.checkout;
  if (!checkout) throw new Error('the simulator has no checkout: chainNetwork was not attached');

  const rpc: ChainHarness['rpc'] = (chainId, method, params, key) =>
    h.request('POST', `/v1/web3/${chainId}`, {
      raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      headers: { 'content-type': 'application/json' },
      key,
    });

  return {
    ...h,
    network,
    checkout,
    rpc,
    async pay(paymentId, pair, email = `customer-${paymentId}@example.com`) {
      const { checkoutToken, ownerPrivateKey } = await checkout.signIn(paymentId, { email });
      const prepared = await checkout.prepare(checkoutToken, pair);
      const signature = await privateKeyToAccount(ownerPrivateKey).signMessage({ message: { raw: prepared.userOpHash } });
      const signed = { ...prepared.userOperation, signature };
      const reply = await rpc(pair.chainId, 'eth_sendUserOperation', [signed, prepared.entryPoint], checkoutToken);
      return { checkoutToken, prepared, signed, reply };
    },
    async settled(paymentId) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const res = await h.request('GET', `/v1/payments/${paymentId}`);
        if ((res.body.status !== 'PROCESSING' && res.body.status !== 'ACTIVE') || Date.now() > deadline) return res;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

export const signUserOpHash = (privateKey: Hex, userOpHash: Hex): Promise<Hex> =>
  privateKeyToAccount(privateKey).signMessage({ message: { raw: userOpHash } });
