// The two JSON views of a payment (decisions.md "Payment"): the create view (201) and the
// retrieve view (GET, DELETE, list items, control API).
import type { Payment as PaymentView, PaymentCreateView } from '../../contract/types.ts';
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
  const base = sharedFields(p, payUrl);
  return {
    id: base.id,
    status: p.status,
    amount: base.amount,
    currency: base.currency,
    title: base.title,
    externalId: base.externalId,
    acceptedChains: base.acceptedChains,
    acceptedTokens: base.acceptedTokens,
    serviceFee: base.serviceFee,
    merchantFee: base.merchantFee,
    sellers: base.sellers,
    paymentUrl: base.paymentUrl,
    expiresAt: base.expiresAt,
    createdAt: base.createdAt,
  } satisfies PaymentCreateView;
}

/** The fields both views share, status aside (the create view's status is the literal ACTIVE). */
function sharedFields(p: Payment, payUrl: string): Omit<PaymentCreateView, 'status'> {
  return {
    id: p.id,
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
    expiresAt: iso(p.expiresAt),
    createdAt: iso(p.createdAt),
  };
}

export type RetrieveView = (p: Payment, payUrl: string) => PaymentView;

export function retrieveView(p: Payment, payUrl: string): PaymentView {
  const base = sharedFields(p, payUrl);
  return {
    id: base.id,
    status: p.status,
    amount: base.amount,
    currency: base.currency,
    title: base.title,
    externalId: base.externalId,
    acceptedChains: base.acceptedChains,
    acceptedTokens: base.acceptedTokens,
    serviceFee: base.serviceFee,
    merchantFee: base.merchantFee,
    sellers: base.sellers,
    paymentUrl: base.paymentUrl,
    chainId: p.chainId === null ? null : wireChainId(p.chainId),
    token: p.token,
    exchangeRate: p.exchangeRate,
    amountToken: p.amountToken,
    serviceFeeToken: p.serviceFeeToken,
    merchantFeeToken: p.merchantFeeToken,
    gasActual: p.gasActual,
    txHash: p.txHash,
    error: p.error ? { ...p.error } : null,
    expiresAt: base.expiresAt,
    paidAt: p.paidAt === null ? null : iso(p.paidAt),
    createdAt: base.createdAt,
    updatedAt: iso(p.updatedAt),
  } satisfies PaymentView;
}
