// The payment record as the simulator keeps it. Records are immutable: every change is a new record
// produced by the transition table (state-machine.ts). Times are virtual-clock milliseconds.
import type { TokenSymbol } from '@stablepay/contract/chain-table';

export const PAYMENT_STATUSES = ['ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Statuses that hold the payment's externalId (spec §2 "externalId uniqueness"). */
export const LIVE_STATUSES: readonly PaymentStatus[] = ['ACTIVE', 'PROCESSING', 'SUCCESSFUL'];
export const TERMINAL_STATUSES: readonly PaymentStatus[] = ['SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'];

/** Where a payment was created: API-key creates never emit payment.created, dashboard creates do. */
export type PaymentOrigin = 'api' | 'dashboard';

export type ErrorSource = 'chain' | 'bundler' | 'service';
export const ERROR_SOURCES: readonly ErrorSource[] = ['chain', 'bundler', 'service'];

export interface PaymentError {
  code: string;
  source: ErrorSource;
  message: string;
}

/** One token transfer of a settlement; amountToken is whole tokens with 6 decimals. */
export interface SettlementTransfer {
  role: 'merchant' | 'seller' | 'service';
  address: string;
  amountToken: string;
}

export interface Seller {
  address: string;
  /** Net fiat amount after this seller's part of the fee, formatted with the currency's minor units. */
  amount: string;
}

export interface Payment {
  readonly id: string;
  readonly merchantId: string;
  readonly origin: PaymentOrigin;
  readonly status: PaymentStatus;
  /** Echoed exactly as sent ("100.5" stays "100.5"). */
  readonly amount: string;
  readonly currency: string;
  readonly title: string | null;
  readonly externalId: string | null;
  readonly acceptedChains: readonly number[];
  readonly acceptedTokens: readonly TokenSymbol[];
  readonly serviceFee: string;
  readonly merchantFee: string;
  readonly sellers: readonly Seller[] | null;
  readonly chainId: number | null;
  readonly token: TokenSymbol | null;
  readonly exchangeRate: string | null;
  readonly amountToken: string | null;
  readonly serviceFeeToken: string | null;
  readonly merchantFeeToken: string | null;
  /** Each seller's token amount (internal: the ledger's transfers), request order. */
  readonly sellersToken: readonly string[] | null;
  /** What the settlement transaction actually transferred (internal: the ledger's record); null when unknown. */
  readonly settlementTransfers: readonly SettlementTransfer[] | null;
  readonly gasActual: string | null;
  readonly txHash: string | null;
  readonly error: PaymentError | null;
  readonly expiresAt: number;
  readonly paidAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A validated create request with fees computed, before it gets an id and timestamps. */
export interface PaymentDraft {
  amount: string;
  currency: string;
  title: string | null;
  externalId: string | null;
  acceptedChains: number[];
  acceptedTokens: TokenSymbol[];
  serviceFee: string;
  merchantFee: string;
  sellers: Seller[] | null;
  /** Absent: the default (now + 1 h) applies at creation. */
  expiresAt: number | undefined;
}
