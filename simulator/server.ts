// Runs the simulator on a real HTTP port. The listener is bound first so the pay URL can default
// to the server's own address (port 0 picks a free port), then the app is built and attached.
import { createServer, type RequestListener, type ServerOptions as ServerOptionsOfNode } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Simulator } from './app.ts';
import type { ChainNetwork } from './chains/index.ts';
import { DEFAULTS } from './config/defaults.ts';
import { controlExposure, type ControlExposure } from './control/index.ts';
import { encodeBackslashes } from './http/canonical-path.ts';
import type { ResetSimulator } from './control/reset-routes.ts';
import { createSimulatorOn, startChainsFor, type StartSimulatorOptions } from './start-simulator.ts';

export interface ServerOptions extends StartSimulatorOptions {
  host?: string;
  port?: number;
  /** Settle on the local chains (`true` or chain options) — default false here: the instant driver. */
  chains?: StartSimulatorOptions['chains'];
  /** Serve the control API without a token on a non-loopback address (refused otherwise). */
  controlInsecure?: boolean;
  /**
   * Chains the caller has already begun to start (startChainsFor), used instead of starting them here: `stablepay
   * start` boots the Anvil processes while the rest of the simulator loads. The server owns them from then on,
   * and stops them if it fails to start.
   */
  startingChains?: Promise<ChainNetwork | undefined>;
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
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULTS.host;
  const { startingChains, ...simulatorOptions } = options;
  const stopStartingChains = (): void => void startingChains?.then((network) => network?.stop(), () => undefined);
  // Decided before listening: an exposed control API without a token must not start at all.
  let exposure: ControlExposure;
  try {
    exposure = controlExposure({ host, control: options.control ?? DEFAULTS.control, token: options.controlToken, insecure: options.controlInsecure ?? false });
  } catch (error) {
    stopStartingChains();
    throw error;
  }
  let simulator: Simulator | undefined;
  const server = createAdaptorServer({
    fetch: (request, env) => {
      if (!simulator) return new Response('starting', { status: 503 });
      return simulator.app.fetch(request, env);
    },
    createServer: ((serverOptions: ServerOptionsOfNode, listener: RequestListener) =>
      createServer(serverOptions, (incoming, outgoing) => {
        if (incoming.url) incoming.url = encodeBackslashes(incoming.url);
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
    throw error;
  }
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  const chains = options.chains ?? false;
  // The first build may use chains the caller began to start; a reset starts them afresh.
  const build = async (defaultApiKey: string | undefined, network?: Promise<ChainNetwork | undefined>): Promise<Simulator> =>
    createSimulatorOn(await (network ?? startChainsFor({ ...simulatorOptions, chains })), {
      ...simulatorOptions,
      chains,
      payUrl: options.payUrl ?? url,
      ...(defaultApiKey ? { defaultApiKey } : {}),
      reset,
    });
  // A reset is a fresh simulator on the same port: stores emptied, timers and attempts cancelled,
  // the clock back at wall time; chains restart from their baked state so block time follows.
  // Requests that arrive while it is rebuilt get the 503 "starting" answer, as at start-up.
  const reset: ResetSimulator = async (apiKey) => {
    const previous = simulator;
    simulator = undefined;
    await previous?.close();
    const next = await build(apiKey ?? options.defaultApiKey);
    simulator = next;
    return { now: next.clock.nowIso(), merchantId: next.defaultMerchant.id, apiKey: next.defaultApiKey };
  };
  try {
    simulator = await build(options.defaultApiKey, startingChains);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
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
    close,
  };
}
