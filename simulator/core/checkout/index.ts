// The checkout service the hosted page uses (exposed as `simulator.checkout` when chains are attached).
export type { CheckoutPair, CheckoutService, PreparedUserOperation } from './types.ts';
export { createCheckoutService, type CheckoutEngine, type CheckoutServiceDeps } from './checkout-service.ts';
export {
  CheckoutSessions,
  CHECKOUT_TOKEN_TTL_MS,
  CHECKOUT_SESSION_KIND,
  hashCheckoutToken,
  type CheckoutSession,
  type IssuedSession,
  type PreparedOperation,
  type StoredCheckoutSession,
} from './checkout-sessions.ts';
export { parsePair, quotePayment, tokenUnits, type PaymentQuote, type QuotedTransfer, type QuoteDeps } from './payment-quote.ts';
export { estimateGasToken, formatTokenUnits } from './gas-estimate.ts';
