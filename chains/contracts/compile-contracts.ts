// Compiles our Solidity (USDT replicas, the gas paymaster) with the npm `solc` into fixtures/contracts/*.json.
//   npx tsx chains/contracts/compile-contracts.ts          write the artifacts
//   npx tsx chains/contracts/compile-contracts.ts --check  exit 1 when a committed artifact differs from a fresh compile
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contractArtifactsDir, contractSourcesDir, packageFile, requireFromHere } from '../paths.ts';
import type { ContractArtifact } from './load-artifact.ts';

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

function readImport(path: string): { contents: string } | { error: string } {
  const [scope, name, ...rest] = path.split('/');
  if (!scope?.startsWith('@') || !name) return { error: `unsupported import ${path}` };
  try {
    return { contents: readFileSync(packageFile(`${scope}/${name}`, rest.join('/')), 'utf8') };
  } catch (cause) {
    return { error: `cannot read ${path}: ${String(cause)}` };
  }
}

/** Compile every `chains/contracts/solidity/*.sol`; returns one artifact per contract defined in those files. */
export function compileContracts(): ContractArtifact[] {
  const solc = requireFromHere('solc') as { compile(input: string, opts: unknown): string; version(): string };
  const files = readdirSync(contractSourcesDir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(join(contractSourcesDir, f), 'utf8') }]));
  const input = { language: 'Solidity', sources, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const artifacts: ContractArtifact[] = [];
  for (const file of files) {
    for (const [contractName, c] of Object.entries(output.contracts[file] ?? {})) {
      if (c.evm.bytecode.object === '') continue; // interfaces
      artifacts.push({
        contractName,
        sourceName: `chains/contracts/solidity/${file}`,
        compiler: `solc-${solc.version()}`,
        settings: { optimizer: SETTINGS.optimizer, evmVersion: SETTINGS.evmVersion, metadata: SETTINGS.metadata },
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      });
    }
  }
  return artifacts;
}

export const artifactFileName = (contractName: string): string => `${contractName}.json`;

/** Names of committed artifacts that differ from (or are missing for) a fresh compile. */
export function findStaleArtifacts(fresh = compileContracts()): string[] {
  return fresh
    .filter((a) => {
      const path = join(contractArtifactsDir, artifactFileName(a.contractName));
      return !existsSync(path) || readFileSync(path, 'utf8') !== formatArtifact(a);
    })
    .map((a) => a.contractName);
}

export function formatArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

function main(): void {
  const fresh = compileContracts();
  if (process.argv.includes('--check')) {
    const stale = findStaleArtifacts(fresh);
    if (stale.length > 0) {
      console.error(`Stale contract artifacts: ${stale.join(', ')}. Run: npx tsx chains/contracts/compile-contracts.ts`);
      process.exit(1);
    }
    console.log(`${fresh.length} contract artifacts match a fresh compile.`);
    return;
  }
  mkdirSync(contractArtifactsDir, { recursive: true });
  for (const a of fresh) writeFileSync(join(contractArtifactsDir, artifactFileName(a.contractName)), formatArtifact(a));
  console.log(`Wrote ${fresh.map((a) => a.contractName).join(', ')} to fixtures/contracts/.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
