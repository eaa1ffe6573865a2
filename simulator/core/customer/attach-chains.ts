// Wires a running chain network into the simulator: the web3 proxy (bundler in mempool mode, its hooks driving the
// payments), the checkout service of the hosted page, the chain-backed settlement driver of the control API, the
// virtual clock moving every chain's block time, and real block numbers for /control/v1/health.
import { CHAINS } from '@stablepay/contract/chain-table';
import type { ChainNetwork } from '@stablepay/chains';
import { createWeb3Proxy, type Web3Proxy } from '@stablepay/chains/rpc-proxy';
import type { Web3Handler } from './web3-handler.ts';
import { CheckoutSessions, createCheckoutService, type CheckoutEngine, type CheckoutSession } from '../checkout/index.ts';
import type { ChainHealth } from './chain-health.ts';
import type { Logger } from '../support/logger.ts';
import { createChainDriver } from './chain-driver.ts';
import {
  acceptedOperation,
  createChainOutcomeHooks,
  OperationTracker,
  recordFinishedAgain,
  resumeAcceptedOperations,
  type OperationCustody,
} from './chain-outcomes.ts';
import type { SettlementContext, SettlementDriver } from './settlement-driver.ts';

/** Real-time delay before an operation from the hosted page is bundled: a fixed ms value or a [min, max] range. */
export type BundleDelay = number | readonly [number, number];
export const DEFAULT_BUNDLE_DELAY_MS: BundleDelay = [0, 500];

export interface AttachChainsOptions {
  network: ChainNetwork;
  bundleDelayMs?: BundleDelay;
  /** Durable mode: chain state is on disk before a settlement is recorded (see BundlerOptions). */
  durable?: boolean;
  /** Several simulators on one sandbox: who submits and settles each accepted operation (chain-outcomes.ts). */
  custody?: OperationCustody;
}

export interface AttachedChains {
  network: ChainNetwork;
  proxy: Web3Proxy;
  checkout: CheckoutEngine;
  /** The checkout tokens' sessions (durable mode restores them and hands them the sink). */
  sessions: CheckoutSessions;
  driver: SettlementDriver;
  web3Handler: Web3Handler;
  checkoutTokens: (token: string) => { merchantId: string } | undefined;
  chainHealth: () => Promise<ChainHealth[]>;
  /** Durable mode, at start: the accepted operations of restored sessions go on (resumeAcceptedOperations). */
  resumeAccepted(accepted: readonly CheckoutSession[]): Promise<number>;
  /** Several simulators: the accepted operations of these payments, whose holder stopped, go on here if taken (custody). */
  takeOver(paymentIds: ReadonlySet<string>): Promise<number>;
  /** Several simulators: outcomes this bundler reached that these PROCESSING payments lost (undone) are recorded again. */
  recordAgain(paymentIds: ReadonlySet<string>): Promise<number>;
}

function delayFunction(delay: BundleDelay): () => number {
  if (typeof delay === 'number') return () => delay;
  const [min, max] = delay;
  return () => min + Math.floor(Math.random() * (max - min + 1));
}

export function bundleDelayProblem(delay: unknown): string | undefined {
  const ok = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 600_000;
  if (ok(delay)) return undefined;
  if (Array.isArray(delay) && delay.length === 2 && ok(delay[0]) && ok(delay[1]) && delay[0] <= delay[1]) return undefined;
  return 'bundleDelayMs must be an integer 0..600000 or a [min, max] range of such';
}

export function attachChains(context: SettlementContext & { logger: Logger }, options: AttachChainsOptions): AttachedChains {
  const { network } = options;
  const { payments, clock, logger } = context;
  const delay = options.bundleDelayMs ?? DEFAULT_BUNDLE_DELAY_MS;
  const problem = bundleDelayProblem(delay);
  if (problem) throw new RangeError(problem);

  const sessions = new CheckoutSessions(clock);
  const tracker = new OperationTracker();
  const { custody } = options;
  const hooks = createChainOutcomeHooks({ payments, sessions, network, clock, logger, tracker, custody });
  const proxy = createWeb3Proxy(network, hooks, {
    mode: 'mempool',
    autoBundleDelayMs: delayFunction(delay),
    checkpointBeforeSettling: options.durable === true,
  });
  const quoteDeps = { payments, rates: context.rates, clock, merchants: context.merchants, network };
  const checkout = createCheckoutService({ ...quoteDeps, proxy, sessions });
  const web3Handler: Web3Handler = (chainId, rawBody, caller) => proxy.handle(chainId, rawBody, caller);

  // Block time follows the furthest-ahead clock (docs/decisions.md, "Clocks"), from now on; a chain that cannot follow is logged, the clock still moves.
  // Once closing, a move still in flight may meet the network stopped after the close: that is the stop, not a fault.
  let closing = false;
  const syncTime = (now: number) =>
    network.syncTime(now).catch((error: unknown) => {
      if (!closing) logger.error('could not move chain time with the virtual clock', error);
    });
  const unsubscribe = clock.onAdvance(syncTime);
  void clock.track(syncTime(clock.furthestNow()));

  const driver = createChainDriver({
    payments,
    quoteDeps,
    checkout,
    web3Handler,
    bundler: proxy.bundler,
    network,
    tracker,
    custody,
    acceptedOf: (paymentId) => {
      const [session] = sessions.acceptedOf(new Set([paymentId]));
      return session && acceptedOperation(session);
    },
    close: async () => {
      closing = true;
      unsubscribe();
      await proxy.bundler.close();
    },
  });

  const chainHealth = async (): Promise<ChainHealth[]> =>
    Promise.all(
      CHAINS.map(async (c): Promise<ChainHealth> => {
        const handle = network.chains.get(c.chainId);
        if (!handle) return { chainId: c.chainId, name: c.name, blockNumber: 0, status: 'not running' };
        try {
          const res = await handle.rawRequest('eth_blockNumber', []);
          if (res.error) throw new Error(res.error.message);
          return {
            chainId: c.chainId,
            name: c.name,
            blockNumber: Number(BigInt(res.result as string)),
            status: handle.status,
            rpcUrl: handle.rpcUrl,
          };
        } catch {
          return { chainId: c.chainId, name: c.name, blockNumber: 0, status: handle.status === 'running' ? 'unreachable' : handle.status };
        }
      }),
    );

  const resumeAccepted = (accepted: readonly CheckoutSession[]) =>
    resumeAcceptedOperations({ payments, tracker, bundler: proxy.bundler, logger, custody }, accepted);

  return {
    network,
    proxy,
    checkout,
    sessions,
    driver,
    web3Handler,
    checkoutTokens: (token) => sessions.grant(token),
    chainHealth,
    resumeAccepted,
    takeOver: (paymentIds) => resumeAccepted(sessions.acceptedOf(paymentIds)),
    recordAgain: (paymentIds) => recordFinishedAgain({ tracker, bundler: proxy.bundler, hooks, payments }, paymentIds),
  };
}
