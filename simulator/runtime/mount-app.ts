// The simulator's HTTP face, assembled: the request pipeline declared once as a list of stages (edge/http/pipeline.ts)
// from which both the Hono chain and the direct path of POST /v1/payments are built, then the routes, each mounted
// here (the composition root) on the services it serves.
import { Hono, type MiddlewareHandler } from 'hono';
import { CHAINS } from '@stablepay/contract/chain-table';
import type { ApiKeyStore } from '../core/api-keys/api-key-store.ts';
import type { AnalyticsTallies } from '../core/analytics/index.ts';
import type { CheckoutService } from '../core/checkout/index.ts';
import type { VirtualClock } from '../core/clock/virtual-clock.ts';
import type { SettlementDriver } from '../core/customer/index.ts';
import type { ChainHealth } from '../core/customer/chain-health.ts';
import type { Web3Handler } from '../core/customer/web3-handler.ts';
import type { MerchantStore } from '../core/merchants/merchant-store.ts';
import type { PaymentService } from '../core/payments/index.ts';
import { retrieveView } from '../core/payments/index.ts';
import type { PayoutService } from '../core/payouts/index.ts';
import type { FixedWindowLimiter } from '../core/rate-limit/index.ts';
import type { ExchangeRates } from '../core/reference-data/exchange-rates.ts';
import type { Logger } from '../core/support/logger.ts';
import type { Ledger } from '../core/transactions/index.ts';
import type { ListenerRegistry, WebhookService } from '../core/webhooks/index.ts';
import { controlRoutes, requireControlToken } from '../edge/control/index.ts';
import type { ResetSimulator } from '../edge/control/reset-routes.ts';
import type { ControlDeps } from '../edge/control/control-deps.ts';
import { canonicalPathStage } from '../edge/http/canonical-path.ts';
import { directPath, type DirectPath } from '../edge/http/direct-path.ts';
import { errorHandler, notFoundHandler } from '../edge/http/error-handler.ts';
import { ApiError } from '../edge/http/errors.ts';
import { MAX_LIMIT } from '../edge/http/list-query.ts';
import { methodAwareNotFound } from '../edge/http/method-not-allowed.ts';
import { directSteps, useStages, type Stage } from '../edge/http/pipeline.ts';
import { requestLogStage, type LogSink } from '../edge/logging/index.ts';
import { payPageRoutes } from '../edge/pay-page/index.ts';
import { referenceRoutes } from '../edge/served-docs/index.ts';
import { analyticsRoutes } from '../edge/v1/analytics-routes.ts';
import { apiKeyRoutes } from '../edge/v1/api-key-routes.ts';
import { identifyStage, type IdentityEnv } from '../edge/v1/identify.ts';
import { createPaymentDirectRoute, paymentRoutes } from '../edge/v1/payment-routes.ts';
import { payoutRoutes } from '../edge/v1/payout-routes.ts';
import { rateLimitStage } from '../edge/v1/rate-limit.ts';
import { requireAuth, requireAuthStage } from '../edge/v1/require-auth.ts';
import { transactionRoutes } from '../edge/v1/transaction-routes.ts';
import { web3Routes } from '../edge/v1/web3-routes.ts';
import { webhookRoutes } from '../edge/v1/webhook-routes.ts';
import type { FaultName, SeamDecorator } from '../faults/index.ts';
import { DEFAULTS } from './defaults.ts';
import { type MemoryCeiling, memoryCeilingStage } from './memory-ceiling.ts';
import type { DurableState } from './persistence/durable-state.ts';
import { StorageUnavailableError } from './sql-store/sql-durable-state.ts';
import { SandboxResetError } from './sql-store/sql-sandbox-generation.ts';

/** Where a refused /v1 path is sent inside v1: no route has it, so it gets v1's auth, rate-limit headers and 404. */
const NON_CANONICAL_V1_PATH = '/path-not-in-canonical-form';
/** Methods the Fetch API's Request refuses to carry (it throws); HTTP still lets a client send them. */
const FORBIDDEN_FETCH_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The method the refusal's inner request goes with. No route answers the refusal path, so only the rendering depends
 * on the method (a HEAD gets no body); a method Request refuses goes as GET, whose answer is the same 404.
 */
function fetchableMethod(method: string): string {
  return FORBIDDEN_FETCH_METHODS.has(method.toUpperCase()) ? 'GET' : method;
}

export interface AppParts {
  clock: VirtualClock;
  logger: Logger;
  payUrl: string;
  trustProxy: boolean;
  merchants: MerchantStore;
  keys: ApiKeyStore;
  rates: ExchangeRates;
  limiter: FixedWindowLimiter;
  payments: PaymentService;
  payouts: PayoutService;
  ledger: Ledger;
  tallies: AnalyticsTallies;
  webhooks: WebhookService;
  settlement: SettlementDriver;
  checkout: CheckoutService | undefined;
  web3Handler: Web3Handler | undefined;
  checkoutTokens: ((token: string) => { merchantId: string } | undefined) | undefined;
  chainHealth: (() => ChainHealth[] | Promise<ChainHealth[]>) | undefined;
  defaultMerchantId: () => string;
  control: boolean;
  controlToken: string | undefined;
  reset: ResetSimulator | undefined;
  /** POST /control/v1/merchant/reset (runtime/merchant-reset.ts). */
  resetMerchant: ControlDeps['resetMerchant'];
  listeners: ListenerRegistry;
  faults: FaultName[];
  /** Puts the named faults' wrappers around a seam (the identity without faults). */
  seam: SeamDecorator;
  log: LogSink | undefined;
  durable: DurableState | undefined;
  /** Answers a request with the simulator rebuilt after another process's reset (options.ts). */
  reissue: ((request: Request, env: unknown) => Promise<Response>) | undefined;
  /** Requests that may store more refused with 507 once the records held reach it. */
  memoryCeiling: MemoryCeiling;
}

/**
 * Writes that run inside a write session (sql-durable-state.ts): the API's and the control API's. Not the web3 proxy
 * and the payment page, whose handlers wait on chains (the write lock is never held across chain I/O), nor a whole
 * reset, which empties the database itself; those commit after their handler, as any change made outside a request.
 */
function runsInSession(path: string): boolean {
  if (path.startsWith('/v1/web3')) return false;
  if (path === '/control/v1/reset') return false;
  return path.startsWith('/v1/') || path.startsWith('/control/v1/');
}

/**
 * Durable mode. Every request first applies what other processes sharing the database committed (a server database;
 * nothing to do on an embedded one), so a read through any process sees every acknowledged write; a read also waits
 * for this process's own changes made outside any request to be committed, so it never answers what the others
 * cannot read yet. A write runs in a
 * write session: it starts once the session holds the database's write lock and has caught up, so it acts on the
 * latest state, and it is answered once the session committed its changes (one transaction for all writes in
 * flight). A database that cannot take it (down, read-only, full) makes the answer 503 with Retry-After, or 507 when
 * storage is full: the change was not acknowledged and is undone in memory, so it never appears later. From that
 * failure until the database answers again, writes are refused before they run; reads go on from memory. No direct form: the session is
 * awaited before the handler, which the direct path's synchronous steps cannot do, so durable mode runs every
 * request through the chain.
 */
function durableCommitStage(durable: DurableState, reissue: AppParts['reissue']): Stage {
  const isWrite = (method: string): boolean => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  const refused = (error: unknown): Promise<never> => Promise.reject(storageRefusal(error));
  // The generation this simulator was built on: another process's reset, found by a catch-up, changes the durable
  // state's, and a request that found it (before its handler ran, its body unread) is answered by the rebuilt simulator.
  const generation = durable.generation;
  const resetSince = (error?: unknown): boolean =>
    reissue !== undefined && (error instanceof SandboxResetError || durable.generation !== generation);
  return {
    name: 'durable-commit',
    middleware: async (c, next) => {
      const { method } = c.req;
      if (isWrite(method) && durable.unavailable) throw storageRefusal(durable.unavailable);
      if (!isWrite(method) || !runsInSession(c.req.path)) {
        // A database that cannot be read right now: reads go on from memory (what this process last saw); a write
        // outside a session is still refused at its commit.
        let found: unknown;
        // A read first waits for this process's own changes to be committed (a background settlement): what it
        // answers, a read through any other process sharing the database answers next.
        if (!isWrite(method)) await durable.settled?.();
        await durable.refresh().catch((error: unknown) => (found = error));
        if (resetSince(found)) return reissue?.(c.req.raw, c.env);
        if (!isWrite(method)) return next();
        // A write outside a session (the page, the web3 proxy): its reports are noted for its commit.
        const [handled, mark] = durable.trackWrites(next);
        await handled;
        await durable.commit(mark).catch(refused);
        return;
      }
      let ticket: Awaited<ReturnType<DurableState['beginWrite']>>;
      try {
        ticket = await durable.beginWrite();
      } catch (error) {
        if (resetSince(error)) return reissue?.(c.req.raw, c.env);
        throw storageRefusal(error);
      }
      let ran = false;
      try {
        await durable.withinWrite(next);
        ran = true;
      } finally {
        // The session waits for every request that joined it: a handler that threw still leaves it.
        const committed = durable.endWrite(ticket);
        if (ran) await committed.catch(refused);
        else committed.catch(() => undefined);
      }
    },
  };
}

/** A database that cannot take a write, as the answer: 507 when full, else 503, both with Retry-After; anything else as is. */
export function storageRefusal(error: unknown): unknown {
  if (!(error instanceof StorageUnavailableError)) return error;
  return error.full
    ? new ApiError(507, 'Insufficient storage: the database is full; this change was not saved, retry once space is freed', {
        headers: { 'Retry-After': String(DEFAULTS.storageRetryAfterSeconds) },
      })
    : new ApiError(503, 'The database is unavailable; this change was not saved, retry shortly', {
        headers: { 'Retry-After': String(DEFAULTS.storageRetryAfterSeconds) },
      });
}

/** A stage whose middleware a fault may wrap; a wrapped one runs in the chain only (the direct path goes off). */
function seamedStage(seam: SeamDecorator, name: 'rate-limit' | 'require-auth', stage: Stage<IdentityEnv>): Stage<IdentityEnv> {
  const middleware = seam(name, stage.middleware);
  return middleware === stage.middleware ? stage : { name: stage.name, middleware };
}

export function mountApp(parts: AppParts): { app: Hono; directPath: DirectPath | undefined } {
  const { clock, logger, payUrl, trustProxy, keys, limiter, payments, seam } = parts;
  const app = new Hono();
  const v1 = new Hono<IdentityEnv>();
  const refuseUnderV1 = (c: Parameters<MiddlewareHandler>[0]) =>
    v1.fetch(
      new Request(new URL(NON_CANONICAL_V1_PATH, c.req.url), { method: fetchableMethod(c.req.method), headers: c.req.raw.headers }),
      c.env,
    );

  // The pipeline, in order: every request, then every /v1 request.
  const appStages: Stage[] = [
    ...(parts.log ? [requestLogStage(parts.log)] : []),
    ...(parts.durable ? [durableCommitStage(parts.durable, parts.reissue)] : []),
    memoryCeilingStage(parts.memoryCeiling),
    canonicalPathStage({ refuseUnderV1 }),
  ];
  const identity = identifyStage({ keys: seam('key-lookup', keys), clock: seam('key-expiry-clock', clock), trustProxy });
  const counted = seamedStage(seam, 'rate-limit', rateLimitStage({ limiter, clock }));
  const authenticated = seamedStage(seam, 'require-auth', requireAuthStage({ keys, clock }));

  useStages(app, appStages);
  app.onError(errorHandler(logger));
  app.notFound(methodAwareNotFound(() => app.routes, notFoundHandler));
  // v1 also answers on its own (the refusal of a non-canonical /v1 path), so it renders errors itself.
  v1.onError(errorHandler(logger));
  v1.notFound(notFoundHandler);
  useStages(v1, [identity, counted]);
  // The web3 proxy also takes checkout tokens; its handler answers before the general authentication.
  v1.use('/web3/*', requireAuth({ keys, clock, checkoutTokens: parts.checkoutTokens }));
  v1.route('/web3', web3Routes({ handler: parts.web3Handler }));
  useStages(v1, [authenticated]);

  const operations = seam('payment-operations', payments);
  v1.route(
    '/payments',
    paymentRoutes({ payments: operations, payUrl, view: seam('payment-view', retrieveView), maxListLimit: seam('list-limit', MAX_LIMIT) }),
  );
  v1.route('/auth/api-keys', apiKeyRoutes({ keys, clock }));
  v1.route('/analytics', analyticsRoutes({ store: payments.store, tallies: parts.tallies, clock }));
  v1.route('/transactions', transactionRoutes({ ledger: parts.ledger }));
  v1.route('/payouts', payoutRoutes({ payouts: parts.payouts }));
  if (parts.webhooks.configuration) v1.route('/webhooks', webhookRoutes(parts.webhooks.configuration));
  app.route('/v1', v1);
  app.route('/p', payPageRoutes({ payments, merchants: parts.merchants, clock, checkout: parts.checkout }));
  app.route('/', referenceRoutes({ payments, demoMerchantId: parts.defaultMerchantId, payUrl, controlEnabled: parts.control }));

  if (parts.control) {
    const chainHealth =
      parts.chainHealth ?? (() => CHAINS.map((c) => ({ chainId: c.chainId, name: c.name, blockNumber: 0, status: 'instant' })));
    if (parts.controlToken !== undefined) app.use('/control/v1/*', requireControlToken(parts.controlToken));
    app.route(
      '/control/v1',
      controlRoutes({
        clock,
        payments,
        payouts: parts.payouts,
        settlement: parts.settlement,
        merchants: parts.merchants,
        keys,
        rates: parts.rates,
        limiter,
        payUrl,
        trustProxy,
        chainHealth,
        faults: parts.faults,
        resetMerchant: parts.resetMerchant,
        listeners: parts.listeners,
        webhooks: parts.webhooks,
        ...(parts.reset ? { reset: parts.reset } : {}),
      }),
    );
  }

  // The direct path of POST /v1/payments: the same stages, in the same order, then the same create handler.
  const steps = directSteps([...appStages, identity, counted, authenticated] as unknown as Stage[]);
  const direct = steps && directPath({ steps, route: createPaymentDirectRoute({ payments: operations, payUrl }), logger });
  return { app, directPath: direct };
}
