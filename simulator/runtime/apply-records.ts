// Durable mode: how one stored record, as the database has it, goes back into its store. The durable state calls this
// to undo a batch the database refused (every record back to its value before the batch) and to apply what another
// process sharing the database committed. One entry per kind the stores report (restore-state.ts hands the sink).
import { CHECKOUT_SESSION_KIND, type StoredCheckoutSession } from '../core/checkout/index.ts';
import type { ClockOffsets } from '../core/clock/virtual-clock.ts';
import type { Merchant } from '../core/merchants/merchant-store.ts';
import type { Payment } from '../core/payments/types.ts';
import type { Payout } from '../core/payouts/types.ts';
import type { RateLimitSettings } from '../core/rate-limit/index.ts';
import { SETTING_KIND, type ApplyRecord } from '../core/support/persist.ts';
import type { Transaction } from '../core/transactions/index.ts';
import type { ApiKeyStore } from '../core/api-keys/api-key-store.ts';
import type { DurableStores } from './durable-stores.ts';

export type RecordAppliers = ReadonlyMap<string, ApplyRecord>;

export function recordAppliers(to: DurableStores, configuredLimit: RateLimitSettings): RecordAppliers {
  const { webhooks } = to;
  const applyWebhooks = webhooks.applyRecord?.bind(webhooks);
  if (!applyWebhooks) throw new RangeError('durable mode needs the built-in webhook service');
  return new Map<string, ApplyRecord>([
    [
      'merchant',
      (id, value) => {
        const merchant = value as Merchant | undefined;
        to.merchants.applyRecord(id, merchant);
        if (merchant?.testClock) to.clock.attach(id, merchant.testClock);
        else to.clock.detach(id);
      },
    ],
    ['key', (id, value) => to.keys.applyRecord(id, value as Parameters<ApiKeyStore['restore']>[0] | undefined)],
    ['payment', (id, value) => to.payments.applyRecord(id, value as Payment | undefined)],
    ['payout', (id, value) => to.payouts.applyRecord(id, value as Payout | undefined)],
    ['transaction', (id, value) => to.ledger.applyRecord(id, value as Transaction | undefined)],
    ['endpoint', (id, value, origin) => applyWebhooks('endpoint', id, value, origin)],
    ['delivery', (id, value, origin) => applyWebhooks('delivery', id, value, origin)],
    [CHECKOUT_SESSION_KIND, (id, value) => to.checkoutSessions?.applyRecord(id, value as StoredCheckoutSession | undefined)],
    [
      SETTING_KIND,
      (id, value) => {
        if (id === 'exchange-rates') to.rates.applyOverrides((value as Record<string, string> | undefined) ?? {});
        else if (id === 'rate-limit') to.limiter.applySettings((value as RateLimitSettings | undefined) ?? configuredLimit);
      },
    ],
    [
      'clock',
      (id, value, origin) => {
        if (id !== 'offsets' || !value) return;
        to.clock.restoreOffsets(value as ClockOffsets);
        // Another process moved time: the timers now due here fire (the catch-up applied its records first, so what
        // it already did, such as an expiry, is done here too and its timer gone: each fires once in effect).
        if (origin.remote) void to.clock.advance(0).catch(() => undefined);
      },
    ],
    // Which merchant is the default one and how many starts there were: read at start only.
    ['meta', () => undefined],
  ]);
}
