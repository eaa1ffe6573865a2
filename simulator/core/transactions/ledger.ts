// The transaction ledger: one record per SUCCESSFUL payment, written when the payment settles,
// with the transfers its single on-chain transaction made (merchant, sellers, service fee).
import { NewestFirstIndex } from '../support/newest-first-index.ts';
import type { RandomSource } from '../support/random.ts';
import type { Persist } from '../support/persist.ts';
import { requireTokenAmount, settlementSplit } from '../payments/settlement-split.ts';
import type { Payment } from '../payments/types.ts';
import type { Token, Transaction as TransactionView, TransactionTransfer } from '@stablepay/contract/types';
import { wireChainId, wireCurrency } from '../support/wire-enums.ts';

export type TransferRole = TransactionTransfer['role'];

/** The stored record: the wire view (contract `Transaction`) plus its merchant, with a virtual-clock time. */
export interface Transaction {
  id: string;
  merchantId: string;
  paymentId: string;
  externalId: string | null;
  chainId: number;
  token: Token;
  txHash: string;
  amount: string;
  currency: string;
  exchangeRate: string;
  amountToken: string;
  serviceFeeToken: string;
  merchantFeeToken: string;
  gasActual: string;
  transfers: TransactionTransfer[];
  settledAt: number;
}

export interface LedgerDeps {
  random: RandomSource;
  /** The merchant's settlement wallet. */
  walletOf: (merchantId: string) => string;
  serviceFeeCollector: string;
}

export class Ledger {
  private readonly byId = new Map<string, Transaction>();
  private readonly byMerchant = new Map<string, NewestFirstIndex>();

  /** Told about every recorded transaction (durable mode). */
  persist: Persist | undefined;

  constructor(private readonly deps: LedgerDeps) {}

  /** Puts back transactions read from the state directory. */
  restore(transactions: Iterable<Transaction>): void {
    for (const tx of [...transactions].sort((a, b) => a.settledAt - b.settledAt)) this.index(tx);
  }

  /** Durable mode: a transaction as the database has it (undefined: gone), not reported again. */
  applyRecord(id: string, tx: Transaction | undefined): void {
    const previous = this.byId.get(id);
    if (previous) {
      this.byId.delete(id);
      this.byMerchant.get(previous.merchantId)?.remove(id);
    }
    if (tx) this.index(tx);
  }

  private index(tx: Transaction): void {
    this.byId.set(tx.id, tx);
    let index = this.byMerchant.get(tx.merchantId);
    if (!index) this.byMerchant.set(tx.merchantId, (index = new NewestFirstIndex()));
    index.insert(tx.id, tx.settledAt);
  }

  /** Record the settlement of a SUCCESSFUL payment. */
  record(p: Payment): Transaction {
    if (p.status !== 'SUCCESSFUL' || p.chainId === null || p.token === null || p.txHash === null || p.paidAt === null) {
      throw new Error(`payment ${p.id} is not settled`);
    }
    const need = (v: string | null): string => requireTokenAmount(p, v);
    // On-chain settlements carry what the transaction really transferred; otherwise the quoted split.
    const transfers: Transaction['transfers'] = p.settlementTransfers
      ? p.settlementTransfers.map((t) => ({ ...t }))
      : settlementSplit(p, { merchant: this.deps.walletOf(p.merchantId), serviceFeeCollector: this.deps.serviceFeeCollector });
    const tx: Transaction = {
      id: this.deps.random.uuid(),
      merchantId: p.merchantId,
      paymentId: p.id,
      externalId: p.externalId,
      chainId: p.chainId,
      token: p.token,
      txHash: p.txHash,
      amount: p.amount,
      currency: p.currency,
      exchangeRate: need(p.exchangeRate),
      amountToken: need(p.amountToken),
      serviceFeeToken: need(p.serviceFeeToken),
      merchantFeeToken: need(p.merchantFeeToken),
      gasActual: need(p.gasActual),
      transfers,
      settledAt: p.paidAt,
    };
    this.index(tx);
    this.persist?.put('transaction', tx.id, tx);
    return tx;
  }

  /** A merchant reset: every transaction of the merchant is gone. Returns how many there were. */
  forget(merchantId: string): number {
    const index = this.byMerchant.get(merchantId);
    if (!index) return 0;
    const ids = [...index.ids()];
    for (const id of ids) {
      this.byId.delete(id);
      this.persist?.delete('transaction', id);
    }
    this.byMerchant.delete(merchantId);
    return ids.length;
  }

  /** One page newest first; undefined for an unknown or foreign cursor. */
  list(merchantId: string, cursor: string | undefined, limit: number): { items: Transaction[]; hasMore: boolean } | undefined {
    const index = this.byMerchant.get(merchantId) ?? new NewestFirstIndex();
    const page = index.page({ cursor, limit });
    if (!page) return undefined;
    return { items: page.ids.map((id) => this.byId.get(id) as Transaction), hasMore: page.hasMore };
  }
}

export function transactionView(t: Transaction): TransactionView {
  const { merchantId: _merchantId, settledAt, transfers, ...rest } = t;
  return {
    ...rest,
    chainId: wireChainId(rest.chainId),
    currency: wireCurrency(rest.currency),
    transfers: transfers.map((x) => ({ ...x })),
    settledAt: new Date(settledAt).toISOString(),
  } satisfies TransactionView;
}
