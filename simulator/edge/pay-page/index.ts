// The hosted payment page: mount `payPageRoutes(deps)` at /p on the simulator app.
export { payPageRoutes } from './routes.ts';
export type { PayPageDeps } from './pay-page-deps.ts';
export type { CustomerPaymentView, PaymentState } from './customer-view.ts';
