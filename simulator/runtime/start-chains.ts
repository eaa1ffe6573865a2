// Starting the local chains a simulator will settle on, apart from building the simulator: this module loads the
// chain layer only, so `stablepay start` can have the five Anvil processes booting while the rest loads.
import { checkSimulatorOptions } from './check-options.ts';
import type { ChainNetwork } from '@stablepay/chains/build-chain-network';
import { startChainNetwork, type StartChainNetworkOptions } from '@stablepay/chains/start-chain-network';
import { consoleLogger } from '../core/support/logger.ts';
import type { SimulatorOptions } from './options.ts';

/**
 * `true` (default): all five chains; an object: which chains and how (the seed follows the simulator's);
 * `{ rpcUrls }`: chains someone else runs (a black-box conformance run), attached to and never started or stopped.
 */
export type ChainsOption = boolean | Omit<StartChainNetworkOptions, 'seed'> | { rpcUrls: ReadonlyMap<number, string> };

/** Start the chains the options ask for (undefined for `chains: false`). Customer keys follow the simulator seed. */
export async function startChainsFor(
  options: Omit<SimulatorOptions, 'chainNetwork'> & { chains?: ChainsOption },
): Promise<ChainNetwork | undefined> {
  if (options.chains === false) return undefined;
  checkSimulatorOptions(options);
  const logger = options.logger ?? consoleLogger;
  const chainOptions = typeof options.chains === 'object' ? options.chains : {};
  const common = {
    logger: {
      info: (m: string) => logger.info(m),
      warn: (m: string) => logger.info(m),
      error: (m: string, data?: unknown) => logger.error(m, data),
    },
    ...(options.seed !== undefined ? { seed: `stablepay-simulator/${String(options.seed)}` } : {}),
  };
  if ('rpcUrls' in chainOptions) {
    const { attachChainNetwork } = await import('@stablepay/chains/attach-chain-network');
    return attachChainNetwork({ ...common, rpcUrls: chainOptions.rpcUrls });
  }
  return startChainNetwork({ ...common, ...chainOptions });
}
