// The five chains for someone else's implementation: started from the baked state (its test accounts funded) or
// forked, and the chains file written. `stablepay chains` and a black-box conformance run both start chains this way.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ChainNetwork } from '../network/build-chain-network.ts';
import type { ChainLogger } from '../clients/chain-events.ts';
import { chainsEnvironment, chainsFile, type ChainsFile } from './chains-file.ts';
import { startChainNetwork } from '../network/start-chain-network.ts';

export interface StartTestChainsOptions {
  /** Where to write the chains file (its path goes into STABLEPAY_CHAINS_FILE). */
  filePath: string;
  /** chainId -> URL of a chain to fork instead of using the baked state. */
  forks?: Readonly<Record<number, string>>;
  /** 0.0.0.0 when a container must reach the chains. */
  host?: string;
  /** How the target sees a chain URL (e.g. the Docker bridge gateway instead of 127.0.0.1). */
  rpcUrlFor?: (url: string) => string;
  logger?: ChainLogger;
}

export interface TestChains {
  network: ChainNetwork;
  file: ChainsFile;
  filePath: string;
  /** STABLEPAY_RPC_URL_<chainId> for every chain, plus STABLEPAY_CHAINS_FILE. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestChains(options: StartTestChainsOptions): Promise<TestChains> {
  const network = await startChainNetwork({
    ...(options.forks ? { forks: options.forks } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  try {
    const file = chainsFile(network, options.rpcUrlFor);
    mkdirSync(dirname(options.filePath), { recursive: true });
    writeFileSync(options.filePath, `${JSON.stringify(file, null, 2)}\n`);
    return { network, file, filePath: options.filePath, env: chainsEnvironment(file, options.filePath), stop: () => network.stop() };
  } catch (error) {
    await network.stop();
    throw error;
  }
}
