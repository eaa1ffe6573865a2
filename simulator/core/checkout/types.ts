// The checkout service the hosted page codes against (the page imports these shapes; it does not copy them).
import type { TokenSymbol } from '@stablepay/contract/chain-table';

export interface CheckoutPair {
  chainId: number;
  chainName: string;
  token: TokenSymbol;
  /** On-chain decimals of the token (18 for BSC USDT). */
  decimals: number;
  /** What the customer pays, whole tokens with 6 decimals, at the current rate. */
  amountToken: string;
  /** Expected gas in the token (6 decimals), for a first payment from a new smart account. */
  gasEstimateToken: string;
}

export interface PreparedUserOperation {
  sender: `0x${string}`;
  entryPoint: `0x${string}`;
  /** RPC JSON form accepted by eth_sendUserOperation; signature "0x" until the owner signs userOpHash. */
  userOperation: Record<string, unknown>;
  userOpHash: `0x${string}`;
  amountToken: string;
  /** The most the paymaster may charge for gas, in the token (6 decimals): what the batch approves. */
  gasEstimateToken: string;
}

export interface CheckoutService {
  /** Allowed pairs ∩ the chain table (and the running chains), at the current rate; [] when not payable. */
  pairs(paymentId: string): Promise<CheckoutPair[]>;
  /** Simulated social login: an embedded wallet; the same e-mail gives the same key and account (simulator seed). */
  signIn(
    paymentId: string,
    input: { email: string },
  ): Promise<{ checkoutToken: string; ownerAddress: `0x${string}`; ownerPrivateKey: `0x${string}` }>;
  /** An injected EIP-1193 wallet owns the smart account. */
  connectWallet(paymentId: string, input: { ownerAddress: `0x${string}` }): Promise<{ checkoutToken: string }>;
  /** Funds the smart account (simulator faucet), locks the rate and builds the payment's one user operation. */
  prepare(checkoutToken: string, pair: { chainId: number; token: string }): Promise<PreparedUserOperation>;
  /** The payment a live token from signIn/connectWallet was issued for; undefined for any other token. */
  paymentOf(checkoutToken: string): string | undefined;
}
