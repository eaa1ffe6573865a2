// The customer's side of a payment, behind one interface: the instant driver settles in memory
// at once; the chain layer's on-chain driver can replace it (user operation through the bundler,
// PROCESSING on acceptance, SUCCESSFUL/FAILED on the receipt) without touching routes.
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import type { ExchangeRates } from '../reference-data/exchange-rates.ts';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import { refusedTransition, type DomainRefusal } from '../refusals/refusals.ts';
import type { MerchantStore } from '../merchants/merchant-store.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import type { Refusal } from '../payments/state-machine.ts';
import type { ErrorSource, Payment, PaymentError } from '../payments/types.ts';
import type { RandomSource } from '../support/random.ts';

export interface CustomerChoice {
  chainId: number;
  token: TokenSymbol;
}

export interface SettlementDriver {
  /** The customer picks an allowed pair and submits; resolves with the PROCESSING payment. */
  submit(payment: Payment, choice: CustomerChoice): Promise<Payment>;
  /** The transaction is confirmed; resolves with the SUCCESSFUL payment (txHash, paidAt, gasActual). */
  confirm(payment: Payment): Promise<Payment>;
  /** The transaction reverts or the bundler rejects it; resolves with the FAILED payment. */
  fail(payment: Payment, error: PaymentError): Promise<Payment>;
  /** Source of the failure `fail` records when the caller names none (default 'chain': a revert). */
  defaultFailureSource?: ErrorSource;
  close?(): Promise<void>;
}

/** What a driver may use: it reports outcomes by applying events through the payment service. */
export interface SettlementContext {
  payments: PaymentService;
  rates: ExchangeRates;
  clock: VirtualClock;
  random: RandomSource;
  /** Merchants' settlement wallets (where an on-chain driver sends the merchant's share). */
  merchants: MerchantStore;
  /** Receives serviceFeeToken in the settlement transaction. */
  serviceFeeCollector: string;
}

export type SettlementDriverFactory = (context: SettlementContext) => SettlementDriver;

/** A refused transition as the domain refusal a driver throws (the kind is decided in domain/refusals.ts). */
export function refusalError(refusal: Refusal): DomainRefusal {
  return refusedTransition(refusal);
}
