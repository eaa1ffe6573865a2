// Assembles the simulator: stores and services, the /v1 merchant API behind identify -> rate
// limit -> auth, the webhook routes, and the control API. Tests drive it with app.request().
import { Hono } from 'hono';
import type { ApiKeyStore as ApiKeyStoreType } from '../core/api-keys/api-key-store.ts';
import { ApiKeyStore } from '../core/api-keys/index.ts';
import { apiKeyRoutes } from '../edge/v1/api-key-routes.ts';
import { identify } from '../edge/v1/identify.ts';
import { requireAuth } from '../edge/v1/require-auth.ts';
import type { IdentityEnv } from '../edge/v1/identify.ts';
import { printableUrl, requestLog } from '../edge/logging/index.ts';
import { referenceRoutes } from '../edge/served-docs/index.ts';
import { AnalyticsTallies } from '../core/analytics/index.ts';
import { analyticsRoutes } from '../edge/v1/analytics-routes.ts';
import { CHAINS } from '@stablepay/contract/chain-table';
import type { ChainNetwork } from '@stablepay/chains';
import { CHECKOUT_SESSION_KIND, type CheckoutService, type CheckoutSession, type CheckoutSessions, type StoredCheckoutSession } from '../core/checkout/index.ts';
import { ExchangeRates } from '../core/reference-data/exchange-rates.ts';
import { VirtualClock } from '../core/clock/virtual-clock.ts';
import { DEFAULTS } from './defaults.ts';
import { controlRoutes, requireControlToken } from '../edge/control/index.ts';
import { faultBanner, faultySeams, resolveFaults, type FaultName, type SeamDecorator } from '../faults/index.ts';
import { canonicalPath } from '../edge/http/canonical-path.ts';
import { fastCreate, type FastCreate } from '../edge/http/fast-create.ts';
import { methodAwareNotFound } from '../edge/http/method-not-allowed.ts';
import { consoleLogger, errorHandler, notFoundHandler } from '../edge/http/error-handler.ts';
import type { Merchant } from '../core/merchants/merchant-store.ts';
import { MerchantStore } from '../core/merchants/merchant-store.ts';
import type { SimulatorOptions } from './options.ts';
import { checkSimulatorOptions } from './check-options.ts';
import type { DurableState } from './persistence/index.ts';
import { SETTING_KIND } from '../core/support/persist.ts';
import type { Payment } from '../core/payments/types.ts';
import type { Payout } from '../core/payouts/types.ts';
import type { Transaction } from '../core/transactions/index.ts';
import type { DeliveryRecord } from '../core/webhooks/delivery-store.ts';
import type { WebhookEndpoint } from '../core/webhooks/types.ts';
import { CREATE_RULES, PaymentService, PaymentStore, PAYMENT_RULES, retrieveView } from '../core/payments/index.ts';
import { paymentRoutes } from '../edge/v1/payment-routes.ts';
import { MAX_LIMIT } from '../edge/http/list-query.ts';
import { payPageRoutes } from '../edge/pay-page/index.ts';
import { PayoutService } from '../core/payouts/index.ts';
import { payoutRoutes } from '../edge/v1/payout-routes.ts';
import { FixedWindowLimiter, type RateLimitSettings } from '../core/rate-limit/index.ts';
import { rateLimit } from '../edge/v1/rate-limit.ts';
import type { SettlementDriver } from '../core/customer/index.ts';
import { attachChains, createInstantDriver } from '../core/customer/index.ts';
import { createRandomSource } from '../core/support/random.ts';
import { Ledger } from '../core/transactions/index.ts';
import { transactionRoutes } from '../edge/v1/transaction-routes.ts';
import { webhookRoutes } from '../edge/v1/webhook-routes.ts';
import { web3Routes } from '../edge/v1/web3-routes.ts';
import type { AttemptReport, WebhookService } from '../core/webhooks/index.ts';
import { buildAttemptRequest, chaosPlanner, createWebhookService, DEFAULT_RETRY_DELAYS_MS, DEFAULT_TIMEOUT_MS, retryScheduler, type ChaosSettings } from '../core/webhooks/index.ts';

function chaosBanner(s: ChaosSettings): string {
  return `CHAOS DELIVERIES on (--chaos-deliveries): duplicate=${s.duplicate}, reorder=${s.reorder}, delay=${s.delayMs} ms — deliveries may arrive twice, out of order or late`;
}

export type { SimulatorOptions } from './options.ts';

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

interface SimulatorMeta {
  defaultMerchantId: string;
  starts: number;
}

const values = <T>(durable: DurableState, kind: string): T[] => [...durable.records(kind).values()] as T[];

/** Where a refused /v1 path is sent inside v1: no route has it, so it gets v1's auth, rate-limit headers and 404. */
const NON_CANONICAL_V1_PATH = '/path-not-in-canonical-form';

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
  keys: ApiKeyStoreType;
  rates: ExchangeRates;
  limiter: FixedWindowLimiter;
  ledger: Ledger;
  /** The hosted page's checkout (chain-backed runs only: undefined with the instant driver). */
  checkout: CheckoutService | undefined;
  /** The chain network payments settle on, when attached (`chainNetwork` option or startSimulator()). */
  chains: ChainNetwork | undefined;
  /**
   * `POST /v1/payments` answered from node:http without the Hono chain when it is a plain valid create, handed to
   * the app otherwise (http/fast-create.ts; in durable mode its answer waits for the commit, as the chain's does);
   * undefined where the chain must see every request: injected faults, a trusted proxy (the client IP from
   * X-Forwarded-For).
   */
  fastCreate: FastCreate | undefined;
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

export { checkSimulatorOptions } from './check-options.ts';

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  // Refuse bad options before anything starts (timers, chain hooks).
  checkSimulatorOptions(options);
  const defaultApiKey = options.defaultApiKey;
  const logger = options.logger ?? consoleLogger;
  const durable = options.durable;
  const meta = durable?.records('meta').get('simulator') as SimulatorMeta | undefined;
  const storedOffset = (durable?.records('clock').get('offset') as { offsetMs: number } | undefined)?.offsetMs;
  // The clock offset survives a restart: virtual time goes on from where it was, plus the time spent down.
  const clock = options.clock ?? new VirtualClock(storedOffset !== undefined ? { offsetMs: storedOffset } : {});
  // A seeded run restarted on its state dir draws a new reproducible sequence, so no id repeats.
  const random = createRandomSource(options.seed !== undefined && meta ? `${String(options.seed)}/restart-${meta.starts}` : options.seed);
  const payUrl = (options.payUrl ?? DEFAULTS.payUrl).replace(/\/+$/, '');
  const trustProxy = options.trustProxy ?? false;
  const faultNames = resolveFaults(options.faults);
  // A deliberately broken simulator (mutation self-test): the named faults wrap their seams.
  // Without faults every seam below is the real implementation, unwrapped.
  const faulty: SeamDecorator | undefined = faultNames.length > 0 ? faultySeams(faultNames) : undefined;
  if (faulty) logger.info(faultBanner(faultNames));

  const merchants = new MerchantStore(random);
  const keys = new ApiKeyStore(random);
  const rates = new ExchangeRates();
  if (options.exchangeRates) rates.update(options.exchangeRates);
  const limiter = new FixedWindowLimiter({ ...DEFAULTS.rateLimit, ...options.rateLimit });
  const webhookOptions = options.webhookOptions ?? {};
  const faultyDelivery = faulty && {
    buildRequest: faulty('webhook-request', buildAttemptRequest),
    nextAttempt: faulty('webhook-schedule', retryScheduler(webhookOptions.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)),
    timeoutMs: faulty('webhook-timeout-ms', webhookOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
  const { log } = options;
  const attemptLog = log && { onAttempt: (report: AttemptReport) => log({ kind: 'delivery', ...report, url: printableUrl(report.url) }) };
  // Chaos is a wrapper of delivery, chosen here like the faults, and announced as loudly.
  const chaos = options.chaosDeliveries && { chaos: chaosPlanner(options.chaosDeliveries) };
  if (options.chaosDeliveries) logger.info(chaosBanner(options.chaosDeliveries));
  const webhooks = options.webhooks ?? createWebhookService({ ...webhookOptions, clock, ...faultyDelivery, ...attemptLog, ...chaos, ...(durable ? { persistence: { persist: durable.persist, durable: () => durable.commit() } } : {}) });
  const ledger = new Ledger({
    random,
    walletOf: (id) => merchants.get(id)?.walletAddress ?? DEFAULTS.serviceFeeCollector,
    serviceFeeCollector: DEFAULTS.serviceFeeCollector,
  });
  // Analytics reads per-merchant tallies that every payment change updates.
  const tallies = new AnalyticsTallies();
  const payments = new PaymentService({
    clock,
    random,
    webhooks,
    ledger,
    logger,
    listeners: [tallies],
    defaultTtlMs: options.paymentTtlMs ?? DEFAULTS.paymentTtlMs,
    ...(faulty && {
      store: faulty('payment-store', new PaymentStore()),
      rules: {
        validateCreate: faulty('validate-create', CREATE_RULES.validateCreate),
        price: faulty('pricing', CREATE_RULES.price),
        open: faulty('open-payment', PAYMENT_RULES.open),
        transition: faulty('transition', PAYMENT_RULES.transition),
      },
    }),
  });
  const payouts = new PayoutService({ clock, random, rates, webhooks, logger, defaultTtlMs: DEFAULTS.payoutTtlMs });
  if (options.chainNetwork && options.settlement) throw new RangeError('Pass either chainNetwork (on-chain settlement) or settlement, not both');
  const settlementContext = { payments, rates, clock, random, merchants, serviceFeeCollector: options.chainNetwork?.feeCollector ?? DEFAULTS.serviceFeeCollector };
  const attached = options.chainNetwork ? attachChains({ ...settlementContext, logger }, { network: options.chainNetwork, bundleDelayMs: options.bundleDelayMs, durable: durable !== undefined }) : undefined;
  const settlement = attached?.driver ?? (options.settlement ?? createInstantDriver)(settlementContext);
  const checkout: CheckoutService | undefined = attached?.checkout;

  let restored: RestoredCounts | undefined;
  let acceptedOperations: CheckoutSession[] = [];
  if (durable) {
    ({ counts: restored, accepted: acceptedOperations } = restoreState(durable, { merchants, keys, payments, payouts, ledger, webhooks, checkoutSessions: attached?.sessions }));
    const { persist } = durable;
    merchants.persist = persist;
    keys.persist = persist;
    if (payments.store instanceof PaymentStore) payments.store.persist = persist;
    payouts.persist = persist;
    ledger.persist = persist;
    // Settings changed through the control API go over the configured ones, as they were last set.
    const settings = durable.records(SETTING_KIND);
    const storedRates = settings.get('exchange-rates') as Record<string, string> | undefined;
    if (storedRates) rates.restore(storedRates);
    const storedLimit = settings.get('rate-limit') as RateLimitSettings | undefined;
    if (storedLimit) limiter.configure(storedLimit);
    rates.persist = persist;
    limiter.persist = persist;
    clock.onAdvance(() => persist.put('clock', 'offset', { offsetMs: clock.offsetMs }));
  }
  // Operations the bundler had accepted before the stop: settled from the chain if mined, else back in the mempool.
  const resumedOperations = attached && acceptedOperations.length > 0 ? attached.resumeAccepted(acceptedOperations) : Promise.resolve(0);
  // Durable mode: the default merchant of the first start stays the default merchant.
  const defaultMerchant = (meta && merchants.get(meta.defaultMerchantId)) || merchants.create({ name: DEFAULTS.defaultMerchantName }, clock.now());
  // A restored key is known only by its hash: without --api-key there is no key to show, and none is minted.
  const existingKey = defaultApiKey !== undefined ? keys.findByKey(defaultApiKey) : undefined;
  if (existingKey && existingKey.merchantId !== defaultMerchant.id) throw new RangeError('defaultApiKey belongs to another merchant of the state dir');
  const keepKeys = meta !== undefined && defaultApiKey === undefined;
  const created = existingKey || keepKeys ? { key: defaultApiKey ?? '' } : keys.create(defaultMerchant.id, { name: 'Default key', ...(defaultApiKey ? { key: defaultApiKey } : {}) }, clock.now());
  durable?.persist.put('meta', 'simulator', { defaultMerchantId: defaultMerchant.id, starts: (meta?.starts ?? 0) + 1 } satisfies SimulatorMeta);

  const app = new Hono();
  if (log) app.use('*', requestLog(log));
  // Durable mode: a write is answered only once what it changed is on disk (one group commit for all
  // requests in flight). Reads change nothing a restart would need before answering.
  if (durable) {
    app.use('*', async (c, next) => {
      await next();
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS') await durable.commit();
    });
  }
  app.onError(errorHandler(logger));
  app.notFound(methodAwareNotFound(() => app.routes, notFoundHandler));

  const v1 = new Hono<IdentityEnv>();
  // v1 also answers on its own (the refusal of a non-canonical /v1 path below), so it renders errors itself.
  v1.onError(errorHandler(logger));
  v1.notFound(notFoundHandler);
  app.use('*', canonicalPath({ refuseUnderV1: (c) => v1.fetch(new Request(new URL(NON_CANONICAL_V1_PATH, c.req.url), { method: c.req.method, headers: c.req.raw.headers }), c.env) }));
  v1.use('*', identify({ keys: faulty ? faulty('key-lookup', keys) : keys, clock: faulty ? faulty('key-expiry-clock', clock) : clock, trustProxy }));
  const limit = rateLimit({ limiter, clock });
  v1.use('*', faulty ? faulty('rate-limit', limit) : limit);
  // The web3 proxy also takes checkout tokens; its handler answers before the general auth below.
  v1.use('/web3/*', requireAuth({ keys, clock, checkoutTokens: attached?.checkoutTokens ?? options.checkoutTokens }));
  v1.route('/web3', web3Routes({ handler: attached?.web3Handler ?? options.web3Handler }));
  const auth = requireAuth({ keys, clock });
  v1.use('*', faulty ? faulty('require-auth', auth) : auth);
  v1.route(
    '/payments',
    paymentRoutes(
      faulty
        ? { payments: faulty('payment-operations', payments), payUrl, view: faulty('payment-view', retrieveView), maxListLimit: faulty('list-limit', MAX_LIMIT) }
        : { payments, payUrl },
    ),
  );
  v1.route('/auth/api-keys', apiKeyRoutes({ keys, clock }));
  v1.route('/analytics', analyticsRoutes({ store: payments.store, tallies, clock }));
  v1.route('/transactions', transactionRoutes({ ledger }));
  v1.route('/payouts', payoutRoutes({ payouts }));
  if (webhooks.configuration) v1.route('/webhooks', webhookRoutes(webhooks.configuration));
  app.route('/v1', v1);
  app.route('/p', payPageRoutes({ payments, merchants, clock, checkout }));
  app.route('/', referenceRoutes({ payments, demoMerchantId: () => defaultMerchant.id, payUrl, controlEnabled: options.control ?? DEFAULTS.control }));

  if (options.control ?? DEFAULTS.control) {
    const chainHealth = options.chainHealth ?? attached?.chainHealth ?? (() => CHAINS.map((c) => ({ chainId: c.chainId, name: c.name, blockNumber: 0, status: 'instant' })));
    if (options.controlToken !== undefined) app.use('/control/v1/*', requireControlToken(options.controlToken));
    app.route('/control/v1', controlRoutes({ clock, payments, payouts, settlement, merchants, keys, rates, limiter, payUrl, trustProxy, chainHealth, faults: faultNames, ...(options.reset ? { reset: options.reset } : {}) }));
  }

  const fast = faulty || trustProxy ? undefined : fastCreate({ keys, clock, limiter, payments, payUrl, logger, log, ...(durable ? { beforeAnswer: () => durable.commit() } : {}) });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      payments.close();
      payouts.close();
      await settlement.close?.();
      await webhooks.close();
      clock.dispose();
    })();
    return closing;
  };

  return {
    app: app as unknown as Hono,
    clock,
    payUrl,
    defaultMerchant,
    defaultApiKey: created.key,
    webhooks,
    payments,
    payouts,
    settlement,
    merchants,
    keys,
    rates,
    limiter,
    ledger,
    checkout,
    chains: options.chainNetwork,
    fastCreate: fast,
    faults: faultNames,
    restored,
    resumedOperations,
    close,
  };
}

interface RestoreTargets {
  merchants: MerchantStore;
  keys: ApiKeyStoreType;
  payments: PaymentService;
  payouts: PayoutService;
  ledger: Ledger;
  webhooks: WebhookService;
  /** Only with chains attached: sessions of a start without chains stay in the state dir for the next one. */
  checkoutSessions: CheckoutSessions | undefined;
}

/** Puts the state directory's records back into fresh stores; timers and pending deliveries resume. */
function restoreState(durable: DurableState, to: RestoreTargets): { counts: RestoredCounts | undefined; accepted: CheckoutSession[] } {
  const merchantRecords = values<Merchant>(durable, 'merchant');
  for (const merchant of merchantRecords) to.merchants.restore(merchant);
  const keyRecords = values<Parameters<ApiKeyStoreType['restore']>[0]>(durable, 'key');
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
  const sessions = to.checkoutSessions?.restore(values<StoredCheckoutSession>(durable, CHECKOUT_SESSION_KIND), durable.persist);
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
