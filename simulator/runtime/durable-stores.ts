// The stores durable mode keeps, as restore-state.ts puts them back and apply-records.ts applies one record to them.
import type { ApiKeyStore } from '../core/api-keys/api-key-store.ts';
import type { CheckoutSessions } from '../core/checkout/index.ts';
import type { VirtualClock } from '../core/clock/virtual-clock.ts';
import type { MerchantStore } from '../core/merchants/merchant-store.ts';
import type { PaymentService } from '../core/payments/index.ts';
import type { PayoutService } from '../core/payouts/index.ts';
import type { FixedWindowLimiter } from '../core/rate-limit/index.ts';
import type { ExchangeRates } from '../core/reference-data/exchange-rates.ts';
import type { Ledger } from '../core/transactions/index.ts';
import type { WebhookService } from '../core/webhooks/index.ts';

/** The stores a durable simulator keeps. */
export interface DurableStores {
  clock: VirtualClock;
  merchants: MerchantStore;
  keys: ApiKeyStore;
  payments: PaymentService;
  payouts: PayoutService;
  ledger: Ledger;
  webhooks: WebhookService;
  rates: ExchangeRates;
  limiter: FixedWindowLimiter;
  /** Only with chains attached: sessions of a start without chains stay in the state dir for the next one. */
  checkoutSessions: CheckoutSessions | undefined;
}
