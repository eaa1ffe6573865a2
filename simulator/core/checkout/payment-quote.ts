// The one flow every customer path shares (hosted page, control API, bench): may this payment be paid with this
// (chain, token) pair now, at which locked rate, and which transfers does its single user operation make? The
// answer comes from a dry run of the payment's own transition table, so the amounts the chain moves are exactly
// the amounts the payment will show once the bundler accepts the operation.
import { getAddress, type Address } from 'viem';
import { isToken, TOKENS, type TokenSymbol } from '@stablepay/contract/chain-table';
import type { ExchangeRates } from '../reference-data/exchange-rates.ts';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import type { ChainNetwork } from '@stablepay/chains';
import { PAYMENT_REFUSALS } from '../refusals/payment-refusals.ts';
import { Conflict, Invalid, InvalidState } from '../refusals/refusals.ts';
import type { MerchantStore } from '../merchants/merchant-store.ts';
import { pow10, toUnits } from '../money/decimal.ts';
import { TOKEN_SCALE } from '../money/token-amounts.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import { transition } from '../payments/state-machine.ts';
import { requireTokenAmount, settlementSplit } from '../payments/settlement-split.ts';
import type { Payment, SettlementTransfer } from '../payments/types.ts';

export interface QuotedTransfer extends SettlementTransfer {
  /** `address` checksummed, as the batch pays it. */
  to: Address;
  /** The token's smallest unit (amountToken scaled by its decimals). */
  amountUnits: bigint;
}

export interface PaymentQuote {
  paymentId: string;
  chainId: number;
  token: TokenSymbol;
  decimals: number;
  exchangeRate: string;
  amountToken: string;
  serviceFeeToken: string;
  merchantFeeToken: string;
  sellersToken: readonly string[];
  /** Batch order: merchant, sellers in request order, service fee collector; zero amounts are left out. */
  transfers: QuotedTransfer[];
  /** Sum of the transfers in the token's smallest unit. */
  totalUnits: bigint;
}

export interface QuoteDeps {
  payments: PaymentService;
  rates: ExchangeRates;
  clock: Pick<VirtualClock, 'now'>;
  merchants: Pick<MerchantStore, 'get'>;
  network: ChainNetwork;
}

/** Scale a 6-decimal token amount to the token's smallest unit. */
export function tokenUnits(amountToken: string, decimals: number): bigint {
  return toUnits(amountToken, TOKEN_SCALE) * pow10(decimals - TOKEN_SCALE);
}

/** Validate a { chainId, token } choice from outside (page or control body): Invalid on anything else. */
export function parsePair(pair: unknown): { chainId: number; token: TokenSymbol } {
  const input = (typeof pair === 'object' && pair !== null ? pair : {}) as { chainId?: unknown; token?: unknown };
  if (typeof input.chainId !== 'number' || !Number.isSafeInteger(input.chainId) || input.chainId <= 0)
    throw new Invalid('chainId must be a positive integer chain id');
  if (!isToken(input.token)) throw new Invalid(`token must be one of ${TOKENS.join(', ')}`);
  return { chainId: input.chainId, token: input.token };
}

/** The quote for paying `payment` with `pair` now; refuses with InvalidState (not payable) or Invalid (expired, pair refused). */
export function quotePayment(deps: QuoteDeps, payment: Payment, pair: { chainId: number; token: TokenSymbol }): PaymentQuote {
  const exchangeRate = deps.rates.rateString(payment.currency);
  const dryRun = transition(
    payment,
    { type: 'customer.submitted', chainId: pair.chainId, token: pair.token, exchangeRate },
    deps.clock.now(),
  );
  if (!dryRun.ok) {
    const { reason, message } = dryRun.refusal;
    if (reason === 'invalid-state') throw new InvalidState(PAYMENT_REFUSALS.notPayable(payment.status));
    // A submit at or after expiresAt is refused and the payment expires there and then (decisions.md).
    if (reason === 'expired') deps.payments.apply(payment.id, { type: 'clock.expired' });
    throw new Invalid(message);
  }
  if (!deps.network.chains.has(pair.chainId)) throw new Invalid(`Chain ${pair.chainId} is not running in this simulator`);
  const quoted = dryRun.payment;
  const decimals = deps.network.tokenDecimals(pair.chainId, pair.token);
  const merchant = deps.merchants.get(payment.merchantId);
  if (!merchant) throw new Conflict(`Merchant ${payment.merchantId} has no settlement wallet`);
  const need = (value: string | null): string => requireTokenAmount(quoted, value);
  const sellersToken = quoted.sellersToken ?? [];
  const parts = settlementSplit(quoted, { merchant: merchant.walletAddress, serviceFeeCollector: deps.network.feeCollector });
  const transfers = parts
    .map((t) => ({ ...t, to: getAddress(t.address), amountUnits: tokenUnits(t.amountToken, decimals) }))
    .filter((t) => t.amountUnits > 0n);
  return {
    paymentId: payment.id,
    chainId: pair.chainId,
    token: pair.token,
    decimals,
    exchangeRate: need(quoted.exchangeRate),
    amountToken: need(quoted.amountToken),
    serviceFeeToken: need(quoted.serviceFeeToken),
    merchantFeeToken: need(quoted.merchantFeeToken),
    sellersToken,
    transfers,
    totalUnits: transfers.reduce((sum, t) => sum + t.amountUnits, 0n),
  };
}
