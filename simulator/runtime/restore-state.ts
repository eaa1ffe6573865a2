// Durable mode at start: what the state directory held goes back into fresh stores (timers and pending deliveries
// resume), then every store reports its changes to the journal from here on. The composition root calls these two
// and knows nothing else of how a restart works.
import { isDeepStrictEqual } from 'node:util';
import type { ApiKeyStore } from '../core/api-keys/api-key-store.ts';
import { CHECKOUT_SESSION_KIND, type CheckoutSession, type StoredCheckoutSession } from '../core/checkout/index.ts';
import type { Merchant } from '../core/merchants/merchant-store.ts';
import { PaymentStore } from '../core/payments/index.ts';
import type { Payment } from '../core/payments/types.ts';
import type { Payout } from '../core/payouts/types.ts';
import type { RateLimitSettings } from '../core/rate-limit/index.ts';
import { type ApplyRecord, type Persist, SETTING_KIND } from '../core/support/persist.ts';
import type { Transaction } from '../core/transactions/index.ts';
import type { DeliveryRecord } from '../core/webhooks/delivery-store.ts';
import type { WebhookEndpoint } from '../core/webhooks/types.ts';
import { type RecordAppliers, recordAppliers } from './apply-records.ts';
import { bothSinks } from './memory-ceiling.ts';
import type { DurableStores } from './durable-stores.ts';
import type { DurableState } from './persistence/index.ts';

export interface RestoredCounts {
  merchants: number;
  keys: number;
  payments: number;
  payouts: number;
  transactions: number;
  endpoints: number;
  deliveries: number;
  pendingDeliveries: number;
  /** Live checkout sessions put back (chain-backed runs; expired ones are dropped at start). */
  checkoutSessions: number;
}

const values = <T>(durable: DurableState, kind: string): T[] => [...durable.records(kind).values()] as T[];

/** Every kind of record the stores report. */
const KINDS = [
  'merchant',
  'key',
  'payment',
  'payout',
  'transaction',
  'endpoint',
  'delivery',
  CHECKOUT_SESSION_KIND,
  SETTING_KIND,
  'clock',
  'meta',
];

/**
 * Puts the state directory's records back, then hands every store the journal's sink. Returns what was restored
 * (undefined when the directory was empty) and the user operations the bundler had accepted before the stop.
 * `alsoTell` (the memory ceiling's tally) is told of every record held: those read back, every change the stores
 * report, and every record the durable state puts back (an undo, another process's change).
 */
export function restoreState(
  durable: DurableState,
  to: DurableStores,
  alsoTell?: Persist,
): { counts: RestoredCounts | undefined; accepted: CheckoutSession[] } {
  if (alsoTell) for (const kind of KINDS) for (const [id, value] of durable.records(kind)) alsoTell.put(kind, id, value);
  const sink = alsoTell ? bothSinks(durable.persist, alsoTell) : durable.persist;
  const merchantRecords = values<Merchant>(durable, 'merchant');
  for (const merchant of merchantRecords) {
    to.merchants.restore(merchant);
    if (merchant.testClock) to.clock.attach(merchant.id, merchant.testClock);
  }
  const keyRecords = values<Parameters<ApiKeyStore['restore']>[0]>(durable, 'key');
  for (const key of keyRecords) to.keys.restore(key);
  const paymentRecords = values<Payment>(durable, 'payment');
  to.payments.restore(paymentRecords);
  const payoutRecords = values<Payout>(durable, 'payout');
  to.payouts.restore(payoutRecords);
  const transactions = values<Transaction>(durable, 'transaction');
  to.ledger.restore(transactions);
  const endpoints = [...durable.records('endpoint')] as [string, { record: WebhookEndpoint; secret: string }][];
  const deliveries = values<DeliveryRecord>(durable, 'delivery');
  if (!to.webhooks.restore) throw new RangeError('durable mode needs the built-in webhook service');
  to.webhooks.restore({ endpoints, deliveries });
  const sessions = to.checkoutSessions?.restore(values<StoredCheckoutSession>(durable, CHECKOUT_SESSION_KIND), sink);
  // The configured rate limit (before a stored one goes over it) is what a removed setting falls back to.
  const appliers = recordAppliers(to, to.limiter.current);
  durable.applyWith(alsoTell ? toldAppliers(appliers, alsoTell) : appliers);
  persistFromNowOn(durable, to, sink);
  const accepted = sessions?.accepted ?? [];
  if (merchantRecords.length === 0) return { counts: undefined, accepted };
  const counts: RestoredCounts = {
    merchants: merchantRecords.length,
    keys: keyRecords.length,
    payments: paymentRecords.length,
    payouts: payoutRecords.length,
    transactions: transactions.length,
    endpoints: endpoints.length,
    deliveries: deliveries.length,
    pendingDeliveries: deliveries.filter((d) => d.status === 'pending').length,
    checkoutSessions: sessions?.restored ?? 0,
  };
  return { counts, accepted };
}

/** Every store reports its changes to the journal; settings changed through the control API go over the configured ones. */
function persistFromNowOn(durable: DurableState, to: DurableStores, persist: Persist): void {
  to.merchants.persist = persist;
  to.keys.persist = persist;
  if (to.payments.store instanceof PaymentStore) to.payments.store.persist = persist;
  to.payouts.persist = persist;
  to.ledger.persist = persist;
  const settings = durable.records(SETTING_KIND);
  const storedRates = settings.get('exchange-rates') as Record<string, string> | undefined;
  if (storedRates) to.rates.restore(storedRates);
  const storedLimit = settings.get('rate-limit') as RateLimitSettings | undefined;
  if (storedLimit) to.limiter.configure(storedLimit);
  to.rates.persist = persist;
  to.limiter.persist = persist;
  to.limiter.shared = durable.windowCounter?.();
  // Only a real move is written: timers firing (a real-time timer, another process's move applied here) call the
  // listeners too, and an equal put from two processes is a conflict that undoes what else was pending.
  const storeOffsets = () => {
    const offsets = to.clock.offsets();
    // Never stored means every clock at wall time: the first timer to fire writes nothing either.
    const stored = durable.records('clock').get('offsets') ?? { sandboxMs: 0, clocks: {} };
    if (!isDeepStrictEqual(stored, offsets)) persist.put('clock', 'offsets', offsets);
  };
  to.clock.onAdvance(storeOffsets);
  // A new test clock is part of the tree before anyone moves it: another replica (or a restart) must find it.
  to.clock.onTestClockCreated(storeOffsets);
}

/** Each record put back into its store is also told to `sink`. */
function toldAppliers(appliers: RecordAppliers, sink: Persist): RecordAppliers {
  return new Map(
    [...appliers].map(([kind, apply]): [string, ApplyRecord] => [
      kind,
      (id, value, origin) => {
        if (value === undefined) sink.delete(kind, id);
        else sink.put(kind, id, value);
        apply(id, value, origin);
      },
    ]),
  );
}
