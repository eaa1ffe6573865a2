// The page's state in the browser, shared by the sign-in, picker and pay wiring.
import type { CustomerPaymentView } from '../customer-view.ts';
import type { Follower } from './follow-payment.ts';
import type { PageApi } from './page-api.ts';
import type { Signer } from './signer.ts';

export interface PickedPair {
  chainId: number;
  token: string;
  chainName: string;
  amountToken: string;
  gasEstimateToken: string;
}

export interface CheckoutContext {
  api: PageApi;
  payment: CustomerPaymentView | undefined;
  session: { checkoutToken: string; signer: Signer } | undefined;
  pair: PickedPair | undefined;
  /** Between the Pay click and the submit's answer: polls must not overwrite the progress messages. */
  paying: boolean;
  /** This page submitted the payment: focus the result when it settles. */
  submitted: boolean;
  follower: Follower | undefined;
  /** Re-evaluate whether Pay can be pressed. */
  refreshPayButton(): void;
}

export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
