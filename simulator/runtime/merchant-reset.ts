// One merchant's world starts again (POST /control/v1/merchant/reset, `stablepay reset --merchant`): its payments,
// payouts, deliveries and ledger records are gone with their timers and pending attempts, and its clock is back at
// the sandbox time (off the test clock it lived on). The merchant, its keys, settings and webhook endpoint stay, and
// no other merchant's records or clock change.
import type { MerchantResetResult } from '@stablepay/contract/types';
import type { VirtualClock } from '../core/clock/virtual-clock.ts';
import type { MerchantStore } from '../core/merchants/merchant-store.ts';
import type { PaymentService } from '../core/payments/index.ts';
import type { PayoutService } from '../core/payouts/index.ts';
import type { Ledger } from '../core/transactions/index.ts';
import type { WebhookService } from '../core/webhooks/index.ts';

export interface MerchantWorld {
  clock: VirtualClock;
  merchants: MerchantStore;
  payments: PaymentService;
  payouts: PayoutService;
  ledger: Ledger;
  webhooks: WebhookService;
}

export function merchantReset(world: MerchantWorld): (merchantId: string) => Promise<MerchantResetResult['removed']> {
  return async (merchantId) => {
    const removed = {
      payments: world.payments.forget(merchantId),
      payouts: world.payouts.forget(merchantId),
      deliveries: world.webhooks.forget?.(merchantId) ?? 0,
      transactions: world.ledger.forget(merchantId),
    };
    if (world.clock.testClockOf(merchantId) !== undefined) {
      // The test clock stays as it is for the other merchants on it; this one gets a clock of its own.
      world.clock.detach(merchantId);
      world.merchants.leaveTestClock(merchantId);
    }
    await world.clock.for(merchantId).restart();
    return removed;
  };
}
