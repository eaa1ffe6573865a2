export { Ledger, transactionView } from './ledger.ts';
export type { Transaction, TransferRole, LedgerDeps } from './ledger.ts';
