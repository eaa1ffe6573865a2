// The chain-backed simulator in one call: start the five local chains, build the simulator on them (payments settle
// through ERC-4337 on-chain), line the chains' block time up with the virtual clock, and stop the chains again on
// close(). `chains: false` gives the instant in-memory driver instead.
import type { Simulator, SimulatorOptions } from './app.ts';
import { createSimulator } from './app.ts';
import type { ChainNetwork } from '@stablepay/chains';
import { startChainsFor, type ChainsOption } from './start-chains.ts';

export { startChainsFor, type ChainsOption } from './start-chains.ts';

export interface StartSimulatorOptions extends Omit<SimulatorOptions, 'chainNetwork'> {
  chains?: ChainsOption;
}

/** A simulator on `network` that owns it: its clock drives the chains' block time and close() stops them. */
export async function createSimulatorOn(network: ChainNetwork | undefined, options: StartSimulatorOptions): Promise<Simulator> {
  const { chains: _chains, ...rest } = options;
  if (!network) return createSimulator(rest);
  let simulator: Simulator | undefined;
  try {
    simulator = createSimulator({ ...rest, chainNetwork: network });
    await network.syncTime(simulator.clock.furthestNow());
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
