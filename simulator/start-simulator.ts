// The chain-backed simulator in one call: start the five local chains, build the simulator on them (payments settle
// through ERC-4337 on-chain), line the chains' block time up with the virtual clock, and stop the chains again on
// close(). `chains: false` gives the instant in-memory driver instead.
import type { Simulator, SimulatorOptions } from './app.ts';
import { checkSimulatorOptions, createSimulator } from './app.ts';
import { attachChainNetwork, startChainNetwork, type ChainNetwork, type StartChainNetworkOptions } from './chains/index.ts';
import { consoleLogger } from './http/error-handler.ts';

/**
 * `true` (default): all five chains; an object: which chains and how (the seed follows the simulator's);
 * `{ rpcUrls }`: chains someone else runs (a black-box conformance run), attached to and never started or stopped.
 */
export type ChainsOption = boolean | Omit<StartChainNetworkOptions, 'seed'> | { rpcUrls: ReadonlyMap<number, string> };

export interface StartSimulatorOptions extends Omit<SimulatorOptions, 'chainNetwork'> {
  chains?: ChainsOption;
}

/** Start the chains the options ask for (undefined for `chains: false`). Customer keys follow the simulator seed. */
export async function startChainsFor(options: StartSimulatorOptions): Promise<ChainNetwork | undefined> {
  if (options.chains === false) return undefined;
  checkSimulatorOptions(options);
  const logger = options.logger ?? consoleLogger;
  const chainOptions = typeof options.chains === 'object' ? options.chains : {};
  const common = {
    logger: { info: (m: string) => logger.info(m), warn: (m: string) => logger.info(m), error: (m: string, data?: unknown) => logger.error(m, data) },
    ...(options.seed !== undefined ? { seed: `stablepay-simulator/${String(options.seed)}` } : {}),
  };
  if ('rpcUrls' in chainOptions) return attachChainNetwork({ ...common, rpcUrls: chainOptions.rpcUrls });
  return startChainNetwork({ ...common, ...chainOptions });
}

/** A simulator on `network` that owns it: its clock drives the chains' block time and close() stops them. */
export async function createSimulatorOn(network: ChainNetwork | undefined, options: StartSimulatorOptions): Promise<Simulator> {
  const { chains: _chains, ...rest } = options;
  if (!network) return createSimulator(rest);
  let simulator: Simulator | undefined;
  try {
    simulator = createSimulator({ ...rest, chainNetwork: network });
    await network.syncTime(simulator.clock.now());
  } catch (error) {
    await simulator?.close();
    await network.stop();
    throw error;
  }
  const closeSimulator = simulator.close;
  let closing: Promise<void> | undefined;
  return {
    ...simulator,
    close: () => {
      closing ??= closeSimulator().finally(() => network.stop());
      return closing;
    },
  };
}

export async function startSimulator(options: StartSimulatorOptions = {}): Promise<Simulator> {
  return createSimulatorOn(await startChainsFor(options), options);
}
