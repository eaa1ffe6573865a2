// The composition root: createSimulator(options) chooses every implementation, one line each, in the order they
// depend on each other: the clock and stores, the services, who plays the customer (in memory or on the chains),
// durable state (restore-state.ts), then the HTTP face (mount-app.ts). Injected faults are applied here, seam by
// seam, through one decorator that is the identity when none is named. Tests drive the result with app.request().
import type { Hono } from 'hono';
import type { ChainNetwork } from '@stablepay/chains';
import { AnalyticsTallies } from '../core/analytics/index.ts';
import { ApiKeyStore, keyStatus } from '../core/api-keys/index.ts';
import type { CheckoutService, CheckoutSession } from '../core/checkout/index.ts';
import { VirtualClock, type ClockOffsets } from '../core/clock/virtual-clock.ts';
import { attachChains, createInstantDriver, type SettlementDriver } from '../core/customer/index.ts';
import { type Merchant, MerchantStore } from '../core/merchants/merchant-store.ts';
import { CREATE_RULES, PAYMENT_RULES, PaymentService, PaymentStore } from '../core/payments/index.ts';
import { PayoutService } from '../core/payouts/index.ts';
import { FixedWindowLimiter } from '../core/rate-limit/index.ts';
import { ExchangeRates } from '../core/reference-data/exchange-rates.ts';
import { createRandomSource } from '../core/support/random.ts';
import { Ledger } from '../core/transactions/index.ts';
import type { AttemptReport, WebhookService, WrapSend } from '../core/webhooks/index.ts';
import type { DeliveryRecord } from '../core/webhooks/delivery-store.ts';
import { startDeliveryTakeover } from './delivery-takeover.ts';
import type { DurableStores } from './durable-stores.ts';
import type { DurableState } from './persistence/durable-state.ts';
import {
  buildAttemptRequest,
  chaosPlanner,
  createWebhookService,
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_TIMEOUT_MS,
  ListenerRegistry,
  listenerTargets,
  retryScheduler,
  type ChaosSettings,
} from '../core/webhooks/index.ts';
import type { DirectPath } from '../edge/http/direct-path.ts';
import { consoleLogger } from '../edge/http/error-handler.ts';
import { printableUrl } from '../edge/logging/index.ts';
import { faultBanner, faultySeams, resolveFaults, type FaultName, type SeamDecorator } from '../faults/index.ts';
import { checkSimulatorOptions } from './check-options.ts';
import { DEFAULTS } from './defaults.ts';
import { merchantReset } from './merchant-reset.ts';
import { operationCustody, startOperationTakeover } from './operation-custody.ts';
import { mountApp } from './mount-app.ts';
import { bothSinks, DURABLE_COPIES, defaultMaxStoredBytes, StoredObjectTally, StoredPaymentCount } from './memory-ceiling.ts';
import type { SimulatorOptions } from './options.ts';
import { restoreState, type RestoredCounts } from './restore-state.ts';

export type { SimulatorOptions } from './options.ts';
export type { RestoredCounts } from './restore-state.ts';
export { checkSimulatorOptions } from './check-options.ts';

interface SimulatorMeta {
  defaultMerchantId: string;
  starts: number;
}

export interface Simulator {
  app: Hono;
  clock: VirtualClock;
  payUrl: string;
  defaultMerchant: Merchant;
  /** The default merchant's key (shown once at startup by `stablepay start`). */
  defaultApiKey: string;
  webhooks: WebhookService;
  payments: PaymentService;
  payouts: PayoutService;
  settlement: SettlementDriver;
  merchants: MerchantStore;
  keys: ApiKeyStore;
  rates: ExchangeRates;
  limiter: FixedWindowLimiter;
  ledger: Ledger;
  /** The hosted page's checkout (chain-backed runs only: undefined with the instant driver). */
  checkout: CheckoutService | undefined;
  /** The chain network payments settle on, when attached (`chainNetwork` option or startSimulator()). */
  chains: ChainNetwork | undefined;
  /**
   * `POST /v1/payments` answered from node:http by the same pipeline stages and create handler as the Hono chain
   * (edge/http/direct-path.ts); server.ts hands it each request first. Undefined when a stage runs only in the chain
   * (a trusted proxy's client IP, a fault wrapping a middleware).
   */
  directPath: DirectPath | undefined;
  /** Injected faults (empty unless deliberately broken, see simulator/faults/). */
  faults: FaultName[];
  /** Durable mode: what the state directory held at start (undefined in memory, or when it was empty). */
  restored: RestoredCounts | undefined;
  /**
   * Durable mode with chains: resolves once the operations the bundler had accepted before the stop are settled from
   * the chain or back in the mempool, with how many there were (0 at once otherwise).
   */
  resumedOperations: Promise<number>;
  /** Stop timers, webhook deliveries and the settlement driver. Idempotent. */
  close(): Promise<void>;
}

const chaosBanner = (s: ChaosSettings): string =>
  `CHAOS DELIVERIES on (--chaos-deliveries): duplicate=${s.duplicate}, reorder=${s.reorder}, delay=${s.delayMs} ms — deliveries may arrive twice, out of order or late`;

/** The real send, as is: a fault may wrap it (the seam); without one the dispatcher gets no wrapper at all. */
const SEND_AS_IS: WrapSend = (send) => send;

function sendWrapper(seam: SeamDecorator): { wrapSend?: WrapSend } {
  const wrapped = seam('webhook-send', SEND_AS_IS);
  return wrapped === SEND_AS_IS ? {} : { wrapSend: wrapped };
}

/** Without faults every seam is the real implementation, unwrapped. */
const noFaults: SeamDecorator = (_seam, base) => base;

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  // Refuse bad options before anything starts (timers, chain hooks).
  checkSimulatorOptions(options);
  if (options.chainNetwork && options.settlement)
    throw new RangeError('Pass either chainNetwork (on-chain settlement) or settlement, not both');
  const { durable, log } = options;
  const logger = options.logger ?? consoleLogger;
  const meta = durable?.records('meta').get('simulator') as SimulatorMeta | undefined;
  // A state dir written before per-merchant clocks kept one offset (record `offset`): it is the sandbox clock's.
  const legacyOffset = (durable?.records('clock').get('offset') as { offsetMs: number } | undefined)?.offsetMs;
  const storedClocks =
    (durable?.records('clock').get('offsets') as ClockOffsets | undefined) ??
    (legacyOffset !== undefined ? { sandboxMs: legacyOffset, clocks: {} } : undefined);

  // Deliberately broken (mutation self-test): the named faults wrap their seams. Announced loudly.
  const faults = resolveFaults(options.faults);
  const seam = faults.length > 0 ? faultySeams(faults) : noFaults;
  if (faults.length > 0) logger.info(faultBanner(faults));
  // Chaos is a wrapper of delivery, chosen here like the faults, and announced as loudly.
  if (options.chaosDeliveries) logger.info(chaosBanner(options.chaosDeliveries));

  // Time and identity. The clocks' offsets survive a restart: virtual time goes on from where it was.
  const clock = options.clock ?? new VirtualClock();
  if (storedClocks) clock.restoreOffsets(storedClocks);
  // A seeded run restarted on its state dir draws a new reproducible sequence, so no id repeats.
  const random = createRandomSource(options.seed !== undefined && meta ? `${String(options.seed)}/restart-${meta.starts}` : options.seed);
  const payUrl = (options.payUrl ?? DEFAULTS.payUrl).replace(/\/+$/, '');

  // Stores and services.
  const merchants = new MerchantStore(random);
  const keys = new ApiKeyStore(random);
  const rates = new ExchangeRates();
  if (options.exchangeRates) rates.update(options.exchangeRates);
  const limiter = new FixedWindowLimiter({ ...DEFAULTS.rateLimit, ...options.rateLimit });
  const webhookOptions = options.webhookOptions ?? {};
  const listeners = options.listeners ?? new ListenerRegistry();
  // A listener delivers while the key that registered it authenticates as the event's merchant.
  const merchantOfKey = (keyHash: string): string | undefined => {
    const record = keys.findByHash(keyHash);
    return record && keyStatus(record, clock.now()) === 'active' ? record.merchantId : undefined;
  };
  // Every record is held in memory: requests that may store more stop at a ceiling instead of the heap running out.
  // The tally hears of every record the stores hold, beside the database in durable mode.
  const storedObjects = new StoredObjectTally(durable ? DURABLE_COPIES : 1);
  const webhooks =
    options.webhooks ??
    createWebhookService({
      ...webhookOptions,
      clock,
      buildRequest: seam('webhook-request', webhookOptions.buildRequest ?? buildAttemptRequest),
      nextAttempt: seam(
        'webhook-schedule',
        webhookOptions.nextAttempt ?? retryScheduler(webhookOptions.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS),
      ),
      timeoutMs: seam('webhook-timeout-ms', webhookOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      ...sendWrapper(seam),
      ...(log ? { onAttempt: (report: AttemptReport) => log({ kind: 'delivery', ...report, url: printableUrl(report.url) }) } : {}),
      ...(options.chaosDeliveries ? { chaos: chaosPlanner(options.chaosDeliveries) } : {}),
      persistence: durable
        ? {
            persist: bothSinks(durable.persist, storedObjects),
            durable: (record: DeliveryRecord, attempt: number) => durableBeforeSend(durable, record, attempt),
          }
        : { persist: storedObjects },
      listeners: listenerTargets(listeners, merchantOfKey),
    });
  const ledger = new Ledger({
    random,
    walletOf: (id) => merchants.get(id)?.walletAddress ?? DEFAULTS.serviceFeeCollector,
    serviceFeeCollector: DEFAULTS.serviceFeeCollector,
  });
  // Analytics reads per-merchant tallies that every payment change updates.
  const tallies = new AnalyticsTallies();
  // What --max-payments caps, when given.
  const storedPayments = new StoredPaymentCount();
  const payments = new PaymentService({
    clock,
    random,
    webhooks,
    ledger,
    logger,
    listeners: [tallies, storedPayments],
    defaultTtlMs: options.paymentTtlMs ?? DEFAULTS.paymentTtlMs,
    store: seam('payment-store', new PaymentStore()),
    rules: {
      validateCreate: seam('validate-create', CREATE_RULES.validateCreate),
      price: seam('pricing', CREATE_RULES.price),
      open: seam('open-payment', PAYMENT_RULES.open),
      transition: seam('transition', PAYMENT_RULES.transition),
    },
  });
  const payouts = new PayoutService({ clock, random, rates, webhooks, logger, defaultTtlMs: DEFAULTS.payoutTtlMs });

  // Who plays the customer and the chain: the chain network when attached, else the instant driver.
  const settlementContext = {
    payments,
    rates,
    clock,
    random,
    merchants,
    serviceFeeCollector: options.chainNetwork?.feeCollector ?? DEFAULTS.serviceFeeCollector,
  };
  // Several processes on one database: each accepted user operation is submitted and settled by one of them.
  const custody = durable ? operationCustody(durable) : undefined;
  const attached = options.chainNetwork
    ? attachChains(
        { ...settlementContext, logger },
        {
          network: options.chainNetwork,
          bundleDelayMs: options.bundleDelayMs,
          durable: durable !== undefined,
          ...(custody ? { custody } : {}),
        },
      )
    : undefined;
  const settlement = attached?.driver ?? (options.settlement ?? createInstantDriver)(settlementContext);

  // Durable state: put back, then every store reports to the journal.
  let restored: RestoredCounts | undefined;
  let acceptedOperations: CheckoutSession[] = [];
  if (durable)
    ({ counts: restored, accepted: acceptedOperations } = restoreState(
      durable,
      {
        clock,
        merchants,
        keys,
        payments,
        payouts,
        ledger,
        webhooks,
        rates,
        limiter,
        checkoutSessions: attached?.sessions,
      },
      storedObjects,
    ));
  else tellEveryStore(storedObjects, { merchants, keys, payments, payouts, ledger, checkoutSessions: attached?.sessions });
  // Operations the bundler had accepted before the stop: settled from the chain if mined, else back in the mempool.
  const resumedOperations = attached && acceptedOperations.length > 0 ? attached.resumeAccepted(acceptedOperations) : Promise.resolve(0);
  // The default merchant of the first start stays the default merchant.
  const defaultMerchant =
    (meta && merchants.get(meta.defaultMerchantId)) || merchants.create({ name: DEFAULTS.defaultMerchantName }, clock.now());
  const defaultApiKey = defaultKey(options.defaultApiKey, keys, defaultMerchant, meta, clock.now());
  durable?.persist.put('meta', 'simulator', {
    defaultMerchantId: defaultMerchant.id,
    starts: (meta?.starts ?? 0) + 1,
  } satisfies SimulatorMeta);

  // The HTTP face.
  const control = options.control ?? DEFAULTS.control;
  const { app, directPath } = mountApp({
    clock,
    logger,
    payUrl,
    trustProxy: options.trustProxy ?? false,
    merchants,
    keys,
    rates,
    limiter,
    payments,
    payouts,
    ledger,
    tallies,
    webhooks,
    settlement,
    checkout: attached?.checkout,
    web3Handler: attached?.web3Handler ?? options.web3Handler,
    checkoutTokens: attached?.checkoutTokens ?? options.checkoutTokens,
    chainHealth: options.chainHealth ?? attached?.chainHealth,
    defaultMerchantId: () => defaultMerchant.id,
    control,
    controlToken: options.controlToken,
    reset: options.reset,
    resetMerchant: merchantReset({ clock, merchants, payments, payouts, ledger, webhooks }),
    listeners,
    faults,
    seam,
    log,
    durable,
    reissue: options.reissue,
    memoryCeiling: {
      tally: storedObjects,
      maxBytes: options.maxStoredMb !== undefined ? options.maxStoredMb * 2 ** 20 : defaultMaxStoredBytes(),
      ...(options.maxPayments !== undefined ? { payments: { count: storedPayments, max: options.maxPayments } } : {}),
    },
  });

  // Several processes on one database: a change another one made first undoes what this one had not committed yet
  // (its requests in flight are answered 503). Said in the log, so a run that went wrong can be read afterwards.
  const stopConflictLog = durable?.onUndo?.(({ undone, conflicts }) => {
    if (conflicts.length > 0)
      logger.info(`another process changed ${conflicts.join(', ')} first: ${undone} change(s) not yet committed here were undone`);
  });
  // Several processes on one database: the deliveries of one that stopped are taken over by the others.
  const stopTakeover = durable ? startDeliveryTakeover(durable, webhooks) : () => undefined;
  // ...and so are the accepted user operations it held.
  const stopOperationTakeover =
    durable && attached
      ? startOperationTakeover(durable, { payments, takeOver: attached.takeOver, recordAgain: attached.recordAgain })
      : () => undefined;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopTakeover();
      stopOperationTakeover();
      stopConflictLog?.();
      payments.close();
      payouts.close();
      await settlement.close?.();
      await webhooks.close();
      clock.dispose();
    })();
    return closing;
  };

  return {
    app,
    clock,
    payUrl,
    defaultMerchant,
    defaultApiKey,
    webhooks,
    payments,
    payouts,
    settlement,
    merchants,
    keys,
    rates,
    limiter,
    ledger,
    checkout: attached?.checkout,
    chains: options.chainNetwork,
    directPath,
    faults,
    restored,
    resumedOperations,
    close,
  };
}

/**
 * Durable mode, before each webhook attempt: the delivery is committed first (a receiver never sees an event the
 * database does not keep); on a shared database the process must also hold the delivery's lease, so each attempt
 * goes out from one process only, and the claim of attempt N fails once the stored delivery holds attempt N (made and
 * committed elsewhere). A lease that cannot be claimed (held elsewhere, attempt already made, database unreachable) is
 * not this process's attempt; the takeover sweep offers it again once the lease runs out.
 */
async function durableBeforeSend(durable: DurableState, record: DeliveryRecord, attempt: number): Promise<boolean> {
  await durable.commit();
  if (!durable.leases) return true;
  await durable.refresh().catch(() => undefined);
  return durable.leases.claim(record.id, attempt).catch(() => false);
}

/**
 * The default merchant's key: --api-key when given (created, or found when the state dir already has it), a new
 * random one on a first start. A restored key is known only by its hash: without --api-key there is none to show.
 */
function defaultKey(
  given: string | undefined,
  keys: ApiKeyStore,
  merchant: Merchant,
  meta: SimulatorMeta | undefined,
  now: number,
): string {
  const existing = given !== undefined ? keys.findByKey(given) : undefined;
  if (existing && existing.merchantId !== merchant.id) throw new RangeError('defaultApiKey belongs to another merchant of the state dir');
  if (existing || (meta !== undefined && given === undefined)) return given ?? '';
  return keys.create(merchant.id, { name: 'Default key', ...(given ? { key: given } : {}) }, now).key;
}

/** In memory mode the stores report to the memory ceiling's tally alone (durable mode: restore-state.ts, beside the database). */
function tellEveryStore(
  tally: StoredObjectTally,
  to: Pick<DurableStores, 'merchants' | 'keys' | 'payments' | 'payouts' | 'ledger' | 'checkoutSessions'>,
): void {
  to.merchants.persist = tally;
  to.keys.persist = tally;
  if (to.payments.store instanceof PaymentStore) to.payments.store.persist = tally;
  to.payouts.persist = tally;
  to.ledger.persist = tally;
  if (to.checkoutSessions) to.checkoutSessions.persist = tally;
}
