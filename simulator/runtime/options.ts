// Options of createSimulator(). Everything is optional; defaults live in config/defaults.ts.
import type { VirtualClock } from '../core/clock/virtual-clock.ts';
import type { ChainNetwork } from '@stablepay/chains';
import type { ChainHealth } from '../core/customer/chain-health.ts';
import type { Logger } from '../core/support/logger.ts';
import type { LogSink } from '../edge/logging/index.ts';
import type { ResetSimulator } from '../edge/control/reset-routes.ts';
import type { RateLimitSettings } from '../core/rate-limit/fixed-window.ts';
import type { BundleDelay } from '../core/customer/attach-chains.ts';
import type { SettlementDriverFactory } from '../core/customer/settlement-driver.ts';
import type { Web3Handler } from '../core/customer/web3-handler.ts';
import type { ChaosSettings, ListenerRegistry, WebhookService, WebhookServiceOptions } from '../core/webhooks/index.ts';

import type { DurableState } from './persistence/index.ts';
export interface SimulatorOptions {
  /** Base of the hosted payment page; paymentUrl = `${payUrl}/p/<id>`. */
  payUrl?: string;
  /** Fixed window per API key (unauthenticated callers: per IP). Default 6000 / 60 s. */
  rateLimit?: Partial<RateLimitSettings>;
  /** Creates answer 507 once this many payments are held (memory-ceiling.ts; no cap of its own by default). */
  maxPayments?: number;
  /**
   * Requests that may store more answer 507 once the records held are estimated at this many MiB of heap
   * (memory-ceiling.ts; default: a share of the heap limit).
   */
  maxStoredMb?: number;
  /** Mount the control API at /control/v1 (default true). */
  control?: boolean;
  /** When set, every control API request must carry it in the X-Control-Token header. */
  controlToken?: string;
  /** Makes ids and transaction hashes reproducible. API keys stay crypto-random regardless. */
  seed?: string | number;
  /** The default merchant's API key (pk_ + 8..128 letters/digits); random when absent. */
  defaultApiKey?: string;
  /** Shared clock (e.g. with the chain layer); a fresh one by default. */
  clock?: VirtualClock;
  /** A ready webhook service, or options for the built-in one. */
  webhooks?: WebhookService;
  webhookOptions?: Omit<WebhookServiceOptions, 'clock'>;
  /** The customer side of payments; the instant in-memory driver by default. */
  settlement?: SettlementDriverFactory;
  /**
   * A running chain network (startChainNetwork()): payments settle on it through ERC-4337, the web3 proxy, the
   * checkout and /health use it. The caller keeps ownership (close() does not stop it); startSimulator() does both.
   */
  chainNetwork?: ChainNetwork;
  /** With chainNetwork: real-time delay before a hosted-page user operation is bundled (ms or [min, max]; default [0, 500]). */
  bundleDelayMs?: BundleDelay;
  /** The chain layer's JSON-RPC handler behind POST /v1/web3/{chainId}. */
  web3Handler?: Web3Handler;
  /** Verifies checkout tokens (ct_...) accepted by the web3 proxy. */
  checkoutTokens?: (token: string) => { merchantId: string } | undefined;
  /** Chain status for GET /control/v1/health. */
  chainHealth?: () => ChainHealth[] | Promise<ChainHealth[]>;
  /** Fiat -> token rates overriding fixtures/exchange-rates.json. */
  exchangeRates?: Record<string, string>;
  /** Take the client IP from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy?: boolean;
  logger?: Logger;
  /** Opt-in chaos deliveries: duplicates, reordering, delay (simulator/core/webhooks/chaos.ts). Off when absent. */
  chaosDeliveries?: ChaosSettings;
  /** Request and delivery-attempt log records (simulator/edge/logging/); none when absent. */
  log?: LogSink;
  /** Named faults to inject (simulator/faults/fault-definitions.ts); unknown names throw. Off by default. */
  faults?: readonly string[];
  paymentTtlMs?: number;
  /**
   * Durable mode (--state-dir): the simulator starts from these records and reports every change to
   * them; every write request is answered only once its changes are committed. In memory when absent.
   */
  durable?: DurableState;
  /**
   * Another process reset the sandbox while a request was on its way in (a shared database): the request is handed
   * to this (server.ts), which answers it with the simulator rebuilt on the new generation.
   */
  reissue?: (request: Request, env: unknown) => Promise<Response>;
  /** Rebuilds the simulator behind POST /control/v1/reset (server.ts passes it); the route is absent without it. */
  reset?: ResetSimulator;
  /** Listener sessions (`stablepay listen`); server.ts passes one registry to every rebuild, so listeners outlive a reset. */
  listeners?: ListenerRegistry;
}
