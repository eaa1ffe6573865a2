export { Ledger, transactionView } from './ledger.ts';
export type { Transaction, TransferRole, LedgerDeps } from './ledger.ts';
export { transactionRoutes } from '../../edge/v1/transaction-routes.ts';
