// Everything the control API reaches into, handed over by the app.
import type { ApiKeyStore } from '../../core/api-keys/api-key-store.ts';
import type { IdentifyOptions } from '../v1/identify.ts';
import { resolveIdentity } from '../v1/identify.ts';
import type { ExchangeRates } from '../../core/reference-data/exchange-rates.ts';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { clientIp } from '../http/client-ip.ts';
import { unauthorized } from '../http/errors.ts';
import type { MerchantStore } from '../../core/merchants/merchant-store.ts';
import type { PaymentService } from '../../core/payments/payment-service.ts';
import type { PayoutService } from '../../core/payouts/payout-service.ts';
import type { FixedWindowLimiter } from '../../core/rate-limit/fixed-window.ts';
import type { ChainHealth } from '../../core/customer/chain-health.ts';
import type { SettlementDriver } from '../../core/customer/settlement-driver.ts';
import type { Context } from 'hono';
import type { ResetSimulator } from './reset-routes.ts';
import type { MerchantResetResult } from '@stablepay/contract/types';
import type { ListenerRegistry, WebhookService } from '../../core/webhooks/index.ts';

export interface ControlDeps {
  clock: VirtualClock;
  payments: PaymentService;
  payouts: PayoutService;
  settlement: SettlementDriver;
  merchants: MerchantStore;
  keys: ApiKeyStore;
  rates: ExchangeRates;
  limiter: FixedWindowLimiter;
  payUrl: string;
  trustProxy: boolean;
  chainHealth: () => ChainHealth[] | Promise<ChainHealth[]>;
  /** Injected fault names, reported by /health so a broken simulator is never mistaken for a good one. */
  faults?: readonly string[];
  /** Empties one merchant's world and puts its clock back to the sandbox time (POST /merchant/reset). */
  resetMerchant: (merchantId: string) => Promise<MerchantResetResult['removed']>;
  /** Listener sessions (`stablepay listen`) and the service that fans events out to them. */
  listeners: ListenerRegistry;
  webhooks: WebhookService;
  /** Rebuilds the whole simulator (POST /reset); only its owner can, so it is optional. */
  reset?: ResetSimulator;
}

/** The merchant behind the request's Bearer key (control actions that act for a merchant). */
export function merchantFromBearer(c: Context, deps: ControlDeps): string {
  const options: IdentifyOptions = { keys: deps.keys, clock: deps.clock, trustProxy: deps.trustProxy };
  const identity = resolveIdentity(c.req.header('authorization'), clientIp(c, deps.trustProxy), options);
  if (!identity.ok) throw unauthorized(identity.message);
  return identity.record.merchantId;
}
