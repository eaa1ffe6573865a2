// How a priced payment's token amount is paid out, in batch order: the merchant, each seller in
// request order, the service fee collector. The checkout's quote builds its one user operation from
// this split and the ledger records it when the chain did not report the real transfers, so the two
// can never disagree about who gets what.
import type { Payment, SettlementTransfer } from './types.ts';

/** A token amount the payment must carry once it has a locked rate; its absence is a bug, not a refusal. */
export function requireTokenAmount(payment: Payment, value: string | null): string {
  if (value === null) throw new Error(`payment ${payment.id} lacks token amounts`);
  return value;
}

export interface SettlementWallets {
  /** The merchant's settlement wallet. */
  merchant: string;
  serviceFeeCollector: string;
}

export function settlementSplit(payment: Payment, wallets: SettlementWallets): SettlementTransfer[] {
  const need = (value: string | null) => requireTokenAmount(payment, value);
  return [
    { role: 'merchant', address: wallets.merchant, amountToken: need(payment.merchantFeeToken) },
    ...(payment.sellers ?? []).map((s, i) => ({
      role: 'seller' as const,
      address: s.address,
      amountToken: need(payment.sellersToken?.[i] ?? null),
    })),
    { role: 'service', address: wallets.serviceFeeCollector, amountToken: need(payment.serviceFeeToken) },
  ];
}
