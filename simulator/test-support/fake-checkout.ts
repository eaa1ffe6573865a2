// A recording stand-in for the checkout service: the page's unit tests check what the page asks
// of it (and that it asks nothing for a payment that cannot be paid).
import type { CheckoutPair, CheckoutService, PreparedUserOperation } from '../core/checkout/index.ts';

export interface FakeCheckout extends CheckoutService {
  readonly calls: { method: string; args: unknown[] }[];
}

export const FAKE_PAIRS: CheckoutPair[] = [
  { chainId: 8453, chainName: 'Base', token: 'USDC', decimals: 6, amountToken: '100.000000', gasEstimateToken: '0.012000' },
  { chainId: 137, chainName: 'Polygon', token: 'USDT', decimals: 6, amountToken: '100.000000', gasEstimateToken: '0.003000' },
];

export function createFakeCheckout(pairs: CheckoutPair[] = FAKE_PAIRS): FakeCheckout {
  const calls: FakeCheckout['calls'] = [];
  let issued = 0;
  const tokenPayments = new Map<string, string>();
  return {
    calls,
    async pairs(paymentId) {
      calls.push({ method: 'pairs', args: [paymentId] });
      return pairs;
    },
    async signIn(paymentId, input) {
      calls.push({ method: 'signIn', args: [paymentId, input] });
      issued += 1;
      tokenPayments.set(`ct_fake${issued}`, paymentId);
      return {
        checkoutToken: `ct_fake${issued}`,
        ownerAddress: '0x1111111111111111111111111111111111111111',
        ownerPrivateKey: `0x${'11'.repeat(32)}`,
      };
    },
    async connectWallet(paymentId, input) {
      calls.push({ method: 'connectWallet', args: [paymentId, input] });
      issued += 1;
      tokenPayments.set(`ct_fake${issued}`, paymentId);
      return { checkoutToken: `ct_fake${issued}` };
    },
    paymentOf(checkoutToken) {
      return tokenPayments.get(checkoutToken);
    },
    async prepare(checkoutToken, pair): Promise<PreparedUserOperation> {
      calls.push({ method: 'prepare', args: [checkoutToken, pair] });
      return {
        sender: '0x2222222222222222222222222222222222222222',
        entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
        userOperation: { sender: '0x2222222222222222222222222222222222222222', signature: '0x' },
        userOpHash: `0x${'ab'.repeat(32)}`,
        amountToken: '100.000000',
        gasEstimateToken: '0.012345',
      };
    },
  };
}
