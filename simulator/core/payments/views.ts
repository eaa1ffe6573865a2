// The two JSON views of a payment (decisions.md "Payment"): the create view (201) and the
// retrieve view (GET, DELETE, list items, control API).
import type { Payment as PaymentView, PaymentCreateView } from '@stablepay/contract/types';
import { wireChainId, wireChainIds, wireCurrency } from '../support/wire-enums.ts';
import type { Payment } from './types.ts';

// Date#toISOString costs more than a microsecond, and a create formats two times; under load many requests
// share a millisecond (createdAt, and so expiresAt), so the last two formatted times are kept.
let lastMs = NaN;
let lastIso = '';
let previousMs = NaN;
let previousIso = '';
function iso(ms: number): string {
  if (ms === lastMs) return lastIso;
  if (ms === previousMs) return previousIso;
  previousMs = lastMs;
  previousIso = lastIso;
  lastMs = ms;
  lastIso = new Date(ms).toISOString();
  return lastIso;
}

export function paymentUrl(payUrl: string, id: string): string {
  return `${payUrl.replace(/\/+$/, '')}/p/${id}`;
}

export function createView(p: Payment, payUrl: string): PaymentCreateView {
  // The contract fixes the create view's status to ACTIVE; a new payment in any other state is a bug
  // that must surface (as a 500), not be papered over by the view.
  if (p.status !== 'ACTIVE') throw new Error(`Create view of a ${p.status} payment: only a new payment has one`);
  return {
    id: p.id,
    status: p.status,
    ...requestFields(p, payUrl),
    expiresAt: iso(p.expiresAt),
    createdAt: iso(p.createdAt),
  } satisfies PaymentCreateView;
}

/**
 * What both views show of the request, in the contract's order between status and the settlement
 * fields (the retrieve view's keys are asserted in that order).
 */
function requestFields(p: Payment, payUrl: string) {
  return {
    amount: p.amount,
    currency: wireCurrency(p.currency),
    title: p.title,
    externalId: p.externalId,
    acceptedChains: wireChainIds(p.acceptedChains),
    acceptedTokens: [...p.acceptedTokens],
    serviceFee: p.serviceFee,
    merchantFee: p.merchantFee,
    sellers: p.sellers ? p.sellers.map((s) => ({ address: s.address, amount: s.amount })) : null,
    paymentUrl: paymentUrl(payUrl, p.id),
  } satisfies Partial<PaymentCreateView>;
}

export type RetrieveView = (p: Payment, payUrl: string) => PaymentView;

export function retrieveView(p: Payment, payUrl: string): PaymentView {
  return {
    id: p.id,
    status: p.status,
    ...requestFields(p, payUrl),
    chainId: p.chainId === null ? null : wireChainId(p.chainId),
    token: p.token,
    exchangeRate: p.exchangeRate,
    amountToken: p.amountToken,
    serviceFeeToken: p.serviceFeeToken,
    merchantFeeToken: p.merchantFeeToken,
    gasActual: p.gasActual,
    ...outcomeAndTimes(p),
  } satisfies PaymentView;
}

/** The fields a lifecycle record's view ends with, shown alike for payments and payouts. */
export type OutcomeAndTimes = Pick<Payment, 'txHash' | 'error' | 'expiresAt' | 'paidAt' | 'createdAt' | 'updatedAt'>;

/** How a payment or a payout ends its view: the settlement's outcome, then its times (ISO 8601). */
export function outcomeAndTimes(r: OutcomeAndTimes) {
  return {
    txHash: r.txHash,
    error: r.error ? { ...r.error } : null,
    expiresAt: iso(r.expiresAt),
    paidAt: r.paidAt === null ? null : iso(r.paidAt),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}
