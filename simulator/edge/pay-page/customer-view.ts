// What a customer may see of a payment: no merchant id, fee split, sellers, externalId or keys.
// The page renders it on the server and the browser polls it from GET /p/:id/state.
import { findChain } from '@stablepay/contract/chain-table';
import type { Payment, PaymentStatus } from '../../core/payments/types.ts';

export interface CustomerPaymentView {
  id: string;
  status: PaymentStatus;
  title: string | null;
  amount: string;
  currency: string;
  merchantName: string | null;
  expiresAt: string;
  chainId: number | null;
  chainName: string | null;
  token: string | null;
  amountToken: string | null;
  gasActual: string | null;
  txHash: string | null;
  error: { code: string; message: string } | null;
  paidAt: string | null;
  /** Where the page sends the customer after success; only present once the payment is SUCCESSFUL. */
  redirectUrl: string | null;
}

/** The state document: the view plus the virtual clock's now, so the page can count down. */
export interface PaymentState {
  payment: CustomerPaymentView;
  now: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function customerView(payment: Payment, merchantName: string | null, redirectUrl: string | null): CustomerPaymentView {
  return {
    id: payment.id,
    status: payment.status,
    title: payment.title,
    amount: payment.amount,
    currency: payment.currency,
    merchantName,
    expiresAt: iso(payment.expiresAt),
    chainId: payment.chainId,
    chainName: payment.chainId === null ? null : (findChain(payment.chainId)?.name ?? null),
    token: payment.token,
    amountToken: payment.amountToken,
    gasActual: payment.gasActual,
    txHash: payment.txHash,
    error: payment.error ? { code: payment.error.code, message: payment.error.message } : null,
    paidAt: payment.paidAt === null ? null : iso(payment.paidAt),
    redirectUrl: payment.status === 'SUCCESSFUL' ? redirectUrl : null,
  };
}
