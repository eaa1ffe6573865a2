// The two JSON views of a payment (decisions.md "Payment"): the create view (201) and the
// retrieve view (GET, DELETE, list items, control API).
import type { Payment } from './types.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

export function paymentUrl(payUrl: string, id: string): string {
  return `${payUrl.replace(/\/+$/, '')}/p/${id}`;
}

export interface PaymentCreateView {
  id: string;
  status: string;
  amount: string;
  currency: string;
  title: string | null;
  externalId: string | null;
  acceptedChains: number[];
  acceptedTokens: string[];
  serviceFee: string;
  merchantFee: string;
  sellers: { address: string; amount: string }[] | null;
  paymentUrl: string;
  expiresAt: string;
  createdAt: string;
}

export interface PaymentView extends PaymentCreateView {
  chainId: number | null;
  token: string | null;
  exchangeRate: string | null;
  amountToken: string | null;
  serviceFeeToken: string | null;
  merchantFeeToken: string | null;
  gasActual: string | null;
  txHash: string | null;
  error: { code: string; source: string; message: string } | null;
  paidAt: string | null;
  updatedAt: string;
}

export function createView(p: Payment, payUrl: string): PaymentCreateView {
  return {
    id: p.id,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    title: p.title,
    externalId: p.externalId,
    acceptedChains: [...p.acceptedChains],
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
  const base = createView(p, payUrl);
  return {
    id: base.id,
    status: base.status,
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
    chainId: p.chainId,
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
  };
}
