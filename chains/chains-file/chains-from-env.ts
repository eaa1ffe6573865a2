// Chains someone else runs, as a black-box target is told about them: STABLEPAY_RPC_URL_<chainId> per chain, and/or
// STABLEPAY_CHAINS_FILE (the chains file of `stablepay chains` / a conformance run). When either is set the simulator
// attaches to those chains and starts none of its own.
import { readFileSync } from 'node:fs';
import { findChain, CHAIN_IDS, TOKENS } from '@stablepay/contract/chain-table';
import { CHAINS_FILE_ENV, rpcUrlEnv } from './chains-env.ts';
import type { ChainsFile } from './chains-file.ts';

/** chainId -> RPC URL from the environment, or undefined when the environment names no chains. */
export function chainsFromEnv(env: NodeJS.ProcessEnv = process.env): Map<number, string> | undefined {
  const urls = new Map<number, string>();
  const filePath = env[CHAINS_FILE_ENV];
  if (filePath) {
    let file: ChainsFile;
    try {
      file = JSON.parse(readFileSync(filePath, 'utf8')) as ChainsFile;
    } catch (error) {
      throw new Error(`${CHAINS_FILE_ENV}=${filePath} cannot be read as JSON: ${(error as Error).message}`);
    }
    for (const chain of file.chains ?? []) {
      const entry = findChain(chain.chainId);
      if (!entry) throw new Error(`${CHAINS_FILE_ENV} names chain ${chain.chainId}, which is not one of ${CHAIN_IDS.join(', ')}`);
      // The simulator settles at the canonical token addresses; a file naming others describes chains it cannot use.
      for (const symbol of TOKENS) {
        const given = chain.tokens?.[symbol]?.address;
        const ours = entry.tokens[symbol]?.address;
        // Compared without case: a checksum is a spelling of the same address.
        if (given && ours && String(given).toLowerCase() !== ours.toLowerCase())
          throw new Error(`${CHAINS_FILE_ENV}: ${symbol} on chain ${chain.chainId} is at ${given}; the simulator needs ${ours}`);
      }
      urls.set(chain.chainId, chain.rpcUrl);
    }
  }
  // A variable wins over the file (e.g. the same chain seen through another address).
  for (const chainId of CHAIN_IDS) {
    const url = env[rpcUrlEnv(chainId)];
    if (url) urls.set(chainId, url);
  }
  return urls.size > 0 ? urls : undefined;
}
