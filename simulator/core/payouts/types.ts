// Payouts (decisions.md "Analytics, export, ledger, payouts"): created in the dashboard (control
// API), paid out on-chain to a recipient; the same six states as payments.
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import type { PaymentError, PaymentStatus } from '../payments/types.ts';
import { outcomeAndTimes } from '../payments/views.ts';
import type { Payout as PayoutView } from '@stablepay/contract/types';
import { wireChainId, wireCurrency } from '../support/wire-enums.ts';

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

export type { PayoutView };

export function payoutView(p: Payout): PayoutView {
  return {
    id: p.id,
    status: p.status,
    amount: p.amount,
    currency: wireCurrency(p.currency),
    recipientAddress: p.recipientAddress,
    externalId: p.externalId,
    chainId: p.chainId === null ? null : wireChainId(p.chainId),
    token: p.token,
    exchangeRate: p.exchangeRate,
    amountToken: p.amountToken,
    ...outcomeAndTimes(p),
  } satisfies PayoutView;
}
