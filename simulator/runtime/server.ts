// Runs the simulator on a real HTTP port. The listener is bound first so the pay URL can default
// to the server's own address (port 0 picks a free port), then the app is built and attached.
import { createServer, type RequestListener, type ServerOptions as ServerOptionsOfNode } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Simulator } from './app.ts';
import type { ChainNetwork } from '@stablepay/chains';
import { DEFAULTS } from './defaults.ts';
import { consoleLogger } from '../core/support/logger.ts';
import { controlExposure, type ControlExposure } from '../edge/control/index.ts';
import { encodeBackslashes } from '../edge/http/canonical-path.ts';
import type { ResetSimulator } from '../edge/control/reset-routes.ts';
import { openDatabaseUrl, openStateDir, type SqlDurableState } from './persistence/index.ts';
import { ListenerRegistry } from '../core/webhooks/index.ts';
import { createSimulatorOn, startChainsFor, type StartSimulatorOptions } from './start-simulator.ts';

export interface ServerOptions extends StartSimulatorOptions {
  host?: string;
  port?: number;
  /** Settle on the local chains (`true` or chain options) — default false here: the instant driver. */
  chains?: StartSimulatorOptions['chains'];
  /** Serve the control API without a token on a non-loopback address (refused otherwise). */
  controlInsecure?: boolean;
  /**
   * Durable mode: keep the whole state in this directory (created if missing; an embedded PGlite database in `db/`)
   * and start from what it holds. StateDirError or DatabaseOpenError when it cannot be used. In memory when absent.
   */
  stateDir?: string;
  /** Durable mode on a Postgres server (postgres://…): the same store, migrations applied at start. Not with stateDir. */
  databaseUrl?: string;
  /** Connections to the Postgres server of databaseUrl (default 10). */
  databasePoolSize?: number;
  /** With databaseUrl: how long a process's delivery lease lasts before another may take the delivery over (default 30 s). */
  deliveryLeaseMs?: number;
  /**
   * Chains the caller has already begun to start (startChainsFor), used instead of starting them here: `stablepay
   * start` boots the Anvil processes while the rest of the simulator loads. The server owns them from then on,
   * and stops them if it fails to start.
   */
  startingChains?: Promise<ChainNetwork | undefined>;
  /** Answer POST /v1/payments on the direct path (simulator.directPath); default true. Off: every request goes through the Hono chain. */
  directPath?: boolean;
}

export interface RunningServer {
  /** The simulator answering now (POST /control/v1/reset replaces it). */
  readonly simulator: Simulator;
  /** Base URL of the API, e.g. http://127.0.0.1:4000 */
  url: string;
  payUrl: string;
  controlUrl: string | null;
  /** Who can reach the control API: disabled, token, loopback only, or exposed without a token. */
  controlExposure: ControlExposure;
  /** Durable mode: where the state is kept ("the database in <dir>/db", "the database at postgres://…"); undefined in memory. */
  stateStore: string | undefined;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULTS.host;
  const { startingChains, directPath: directPathOn = true, ...simulatorOptions } = options;
  const stopStartingChains = (): void =>
    void startingChains?.then(
      (network) => network?.stop(),
      () => undefined,
    );
  // Decided before listening: an exposed control API without a token must not start at all.
  let exposure: ControlExposure;
  try {
    exposure = controlExposure({
      host,
      control: options.control ?? DEFAULTS.control,
      token: options.controlToken,
      insecure: options.controlInsecure ?? false,
    });
  } catch (error) {
    stopStartingChains();
    throw error;
  }
  // Opened before listening: a state dir that cannot be read stops the start with its reason.
  const logger = options.logger ?? consoleLogger;
  let durable: SqlDurableState | undefined;
  try {
    if (options.stateDir !== undefined && options.databaseUrl !== undefined)
      throw new RangeError('Pass either stateDir (embedded database) or databaseUrl (a Postgres server), not both');
    if (options.stateDir !== undefined) durable = await openStateDir(options.stateDir, { info: (message) => logger.info(message) });
    else if (options.databaseUrl !== undefined)
      durable = await openDatabaseUrl(options.databaseUrl, {
        ...(options.databasePoolSize !== undefined ? { poolSize: options.databasePoolSize } : {}),
        ...(options.deliveryLeaseMs !== undefined ? { deliveryLeaseMs: options.deliveryLeaseMs } : {}),
      });
  } catch (error) {
    stopStartingChains();
    throw error;
  }
  let simulator: Simulator | undefined;
  const server = createAdaptorServer({
    fetch: (request, env) => {
      if (!simulator) return followingReset ? reissue(request, env) : new Response('starting', { status: 503 });
      return simulator.app.fetch(request, env);
    },
    createServer: ((serverOptions: ServerOptionsOfNode, listener: RequestListener) =>
      createServer({ ...serverOptions, ...requestTimersFor(process.env) }, (incoming, outgoing) => {
        if (incoming.url) incoming.url = encodeBackslashes(incoming.url);
        if (directPathOn && simulator?.directPath?.(incoming, outgoing)) return;
        listener(incoming, outgoing);
      })) as typeof createServer,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? DEFAULTS.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    stopStartingChains();
    await durable?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  // Durable mode keeps each started chain's state next to the database (checkpointed after every write we make).
  const chainStateDir = options.stateDir !== undefined ? join(options.stateDir, 'chains') : undefined;
  const requested = options.chains ?? false;
  const chains: ServerOptions['chains'] =
    chainStateDir && requested !== false && !(typeof requested === 'object' && 'rpcUrls' in requested)
      ? { ...(typeof requested === 'object' ? requested : {}), persistStateDir: chainStateDir }
      : requested;
  if (chainStateDir && chains !== false) mkdirSync(chainStateDir, { recursive: true, mode: 0o700 });
  // Listener sessions (`stablepay listen`) are the server's, not one simulator's: a reset keeps them, so a running
  // listen goes on receiving as long as its key is the rebuilt merchant's.
  const listeners = options.listeners ?? new ListenerRegistry();
  // The first build may use chains the caller began to start (never in durable mode: those start from the state
  // dir's checkpoints); a reset starts them afresh.
  const build = async (defaultApiKey: string | undefined, network?: Promise<ChainNetwork | undefined>): Promise<Simulator> =>
    createSimulatorOn(await (network ?? startChainsFor({ ...simulatorOptions, chains })), {
      ...simulatorOptions,
      chains,
      payUrl: options.payUrl ?? url,
      ...(defaultApiKey ? { defaultApiKey } : {}),
      ...(durable ? { durable, reissue } : {}),
      reset,
      listeners,
    });
  // A reset is a fresh simulator on the same port: stores emptied, timers and attempts cancelled,
  // the clock back at wall time; chains restart from their baked state so block time follows.
  // Requests that arrive while it is rebuilt get the 503 "starting" answer, as at start-up.
  const reset: ResetSimulator = async (apiKey) => {
    const previous = simulator;
    simulator = undefined;
    await previous?.close();
    // Reset empties the state dir too: the rebuilt simulator starts from nothing, as in memory.
    await durable?.clear();
    // ...and the chains start again from their baked state.
    if (chainStateDir && chains !== false)
      for (const file of readdirSync(chainStateDir)) rmSync(join(chainStateDir, file), { force: true });
    const next = await build(apiKey ?? options.defaultApiKey);
    simulator = next;
    return { now: next.clock.nowIso(), merchantId: next.defaultMerchant.id, apiKey: next.defaultApiKey };
  };
  // Another process on the database reset the sandbox (found by a catch-up): this one is rebuilt the same way, on the
  // records the reset left (that process's fresh default merchant and key), as a fresh start on them would be.
  // Requests meanwhile wait for it and are answered by the rebuilt simulator.
  let followingReset = false;
  durable?.followResets(async () => {
    followingReset = true;
    const previous = simulator;
    simulator = undefined;
    try {
      await previous?.close();
      simulator = await build(options.defaultApiKey);
    } catch (error) {
      logger.error('could not start afresh after another simulator reset the sandbox', error);
    } finally {
      followingReset = false;
    }
  });
  async function reissue(request: Request, env: unknown): Promise<Response> {
    await durable?.afterReset();
    if (!simulator) return new Response('starting', { status: 503 });
    return simulator.app.fetch(request, env);
  }
  try {
    simulator = await build(options.defaultApiKey, startingChains);
    // On a shared database, what the start made (on a first start the default merchant and key, and the start's
    // record) is written before the start is reported: a replica started next finds them instead of making its own.
    // A database that refuses it leaves the usual state (writes refused until it answers again), not a failed start.
    await durable?.settled();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await durable?.close();
    throw error;
  }
  const { payUrl } = simulator as Simulator;
  const controlUrl = (options.control ?? DEFAULTS.control) ? `${url}/control/v1` : null;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets would hold close() open; no request is in progress at shutdown.
      (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      await simulator?.close();
      await durable?.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    })();
    return closing;
  };

  return {
    get simulator() {
      if (!simulator) throw new Error('the simulator is being reset');
      return simulator;
    },
    url,
    payUrl,
    controlUrl,
    controlExposure: exposure,
    stateStore: durable?.where,
    close,
  };
}

/**
 * Node's per-request timers (headersTimeout, requestTimeout) run on the process clock. When that clock is moved from
 * outside (libfaketime, as the conformance suite's black-box harness does), a jump of hours makes a request in flight
 * look hours old and Node answers it 408: off in that case, Node's defaults otherwise.
 */
export function requestTimersFor(env: NodeJS.ProcessEnv): Pick<ServerOptionsOfNode, 'headersTimeout' | 'requestTimeout'> {
  return env.FAKETIME_TIMESTAMP_FILE || env.FAKETIME ? { headersTimeout: 0, requestTimeout: 0 } : {};
}
