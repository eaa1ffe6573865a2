// Where the baked chain states live and whether they can be used: read at every start, so this module loads no
// EVM library (baking itself, in bake-state.ts, does).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainStateDir } from '../paths.ts';
import { computeStateFingerprint } from './state-fingerprint.ts';

export interface StateManifest {
  fingerprint: string;
  anvil: string;
  chains: number[];
}

export const manifestPath = (dir = chainStateDir): string => join(dir, 'manifest.json');
export const statePath = (chainId: number, dir = chainStateDir): string => join(dir, `${chainId}.json`);

export function readManifest(dir = chainStateDir): StateManifest | undefined {
  const path = manifestPath(dir);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as StateManifest) : undefined;
}

/** Why the states in `dir` cannot be used for `chainIds`, or undefined when they can. */
export function staleReason(chainIds: readonly number[], dir = chainStateDir, fingerprint = computeStateFingerprint()): string | undefined {
  const manifest = readManifest(dir);
  if (!manifest) return `no manifest in ${dir}`;
  if (manifest.fingerprint !== fingerprint)
    return 'its inputs (contracts, chain table, bake code or Anvil version) changed since it was baked';
  const missing = chainIds.filter((id) => !manifest.chains.includes(id) || !existsSync(statePath(id, dir)));
  return missing.length > 0 ? `no state for chain(s) ${missing.join(', ')}` : undefined;
}
