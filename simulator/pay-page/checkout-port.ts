// The checkout service the page drives (simulator/checkout, written alongside the chain wiring).
// The page codes against this shape only; unit tests pass a fake, the simulator passes the real one.
export interface CheckoutPair {
  chainId: number;
  chainName: string;
  token: 'USDC' | 'USDT';
  decimals: number;
  amountToken: string;
  gasEstimateToken: string;
}

export interface PreparedUserOperation {
  sender: `0x${string}`;
  entryPoint: `0x${string}`;
  /** RPC JSON for eth_sendUserOperation, signature "0x" until the browser signs userOpHash. */
  userOperation: Record<string, unknown>;
  userOpHash: `0x${string}`;
  amountToken: string;
  gasEstimateToken: string;
}

export interface CheckoutService {
  /** Allowed pairs ∩ chain table at the current rate; [] when the payment is not payable. */
  pairs(paymentId: string): Promise<CheckoutPair[]>;
  /** Simulated social login: an embedded wallet; the same e-mail signs in to the same account. */
  signIn(paymentId: string, input: { email: string }): Promise<{ checkoutToken: string; ownerAddress: `0x${string}`; ownerPrivateKey: `0x${string}` }>;
  /** An injected EIP-1193 wallet owns the smart account. */
  connectWallet(paymentId: string, input: { ownerAddress: `0x${string}` }): Promise<{ checkoutToken: string }>;
  /** Funds the smart account and builds the one user operation for the chosen pair. */
  prepare(checkoutToken: string, pair: { chainId: number; token: string }): Promise<PreparedUserOperation>;
}
