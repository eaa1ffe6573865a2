// Runs the simulator on a real HTTP port. The listener is bound first so the pay URL can default
// to the server's own address (port 0 picks a free port), then the app is built and attached.
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Simulator } from './app.ts';
import type { ChainNetwork } from './chains/index.ts';
import { DEFAULTS } from './config/defaults.ts';
import { createSimulatorOn, startChainsFor, type StartSimulatorOptions } from './start-simulator.ts';

export interface ServerOptions extends StartSimulatorOptions {
  host?: string;
  port?: number;
  /** Settle on the local chains (`true` or chain options) — default false here: the instant driver. */
  chains?: StartSimulatorOptions['chains'];
  /**
   * Chains the caller has already begun to start (startChainsFor), used instead of starting them here: `stablepay
   * start` boots the Anvil processes while the rest of the simulator loads. The server owns them from then on,
   * and stops them if it fails to start.
   */
  startingChains?: Promise<ChainNetwork | undefined>;
}

export interface RunningServer {
  simulator: Simulator;
  /** Base URL of the API, e.g. http://127.0.0.1:4000 */
  url: string;
  payUrl: string;
  controlUrl: string | null;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULTS.host;
  let simulator: Simulator | undefined;
  const server = createAdaptorServer({
    fetch: (request, env) => {
      if (!simulator) return new Response('starting', { status: 503 });
      return simulator.app.fetch(request, env);
    },
  });
  const { startingChains, ...simulatorOptions } = options;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? DEFAULTS.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    void startingChains?.then((network) => network?.stop(), () => undefined);
    throw error;
  }
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  try {
    const chains = options.chains ?? false;
    const network = await (startingChains ?? startChainsFor({ ...simulatorOptions, chains }));
    simulator = await createSimulatorOn(network, { ...simulatorOptions, chains, payUrl: options.payUrl ?? url });
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const { payUrl } = simulator;
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

  return { simulator, url, payUrl, controlUrl, close };
}
