// Payouts (decisions.md "Analytics, export, ledger, payouts"): created in the dashboard (control
// API), paid out on-chain to a recipient; the same six states as payments.
import type { TokenSymbol } from '../reference-data/chains.ts';
import type { PaymentError, PaymentStatus } from '../payments/types.ts';

export type PayoutStatus = PaymentStatus;

export interface Payout {
  readonly id: string;
  readonly merchantId: string;
  readonly status: PayoutStatus;
  readonly amount: string;
  readonly currency: string;
  readonly recipientAddress: string;
  readonly externalId: string | null;
  readonly chainId: number | null;
  readonly token: TokenSymbol | null;
  readonly exchangeRate: string | null;
  readonly amountToken: string | null;
  readonly txHash: string | null;
  readonly error: PaymentError | null;
  readonly expiresAt: number;
  readonly paidAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface PayoutDraft {
  amount: string;
  currency: string;
  recipientAddress: string;
  externalId: string | null;
  expiresAt: number | undefined;
}

export function payoutView(p: Payout): Record<string, unknown> {
  const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: p.id,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    recipientAddress: p.recipientAddress,
    externalId: p.externalId,
    chainId: p.chainId,
    token: p.token,
    exchangeRate: p.exchangeRate,
    amountToken: p.amountToken,
    txHash: p.txHash,
    error: p.error ? { ...p.error } : null,
    expiresAt: iso(p.expiresAt),
    paidAt: iso(p.paidAt),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}
