// Compiles the test pages' splitter (CheckoutSplitter.sol) with the npm `solc` into
// fixtures/contracts/suite/CheckoutSplitter.json (a folder of its own: the chains' baked state is fingerprinted from
// the artifacts directly in fixtures/contracts, and this contract is no part of it).
//   npx tsx conformance/customer/test-pages/compile-splitter.ts          write the artifact
//   npx tsx conformance/customer/test-pages/compile-splitter.ts --check  exit 1 when the committed one is stale
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Abi, Hex } from 'viem';

const here = dirname(fileURLToPath(import.meta.url));
const SOURCE = join(here, 'CheckoutSplitter.sol');
export const SPLITTER_ARTIFACT = join(here, '..', '..', '..', 'fixtures', 'contracts', 'suite', 'CheckoutSplitter.json');

export interface SplitterArtifact {
  contractName: 'CheckoutSplitter';
  sourceName: string;
  compiler: string;
  abi: Abi;
  bytecode: Hex;
}

/** The artifact as a fresh compile writes it (the exact text of the committed file). */
export function compileSplitter(): string {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { 'CheckoutSplitter.sol': { content: readFileSync(SOURCE, 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { CheckoutSplitter: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts['CheckoutSplitter.sol']!.CheckoutSplitter!;
  const artifact: SplitterArtifact = {
    contractName: 'CheckoutSplitter',
    sourceName: 'conformance/customer/test-pages/CheckoutSplitter.sol',
    compiler: `solc-${solc.version()}`,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

export function loadSplitterArtifact(): SplitterArtifact {
  return JSON.parse(readFileSync(SPLITTER_ARTIFACT, 'utf8')) as SplitterArtifact;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fresh = compileSplitter();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(SPLITTER_ARTIFACT, 'utf8');
    } catch {
      // missing: stale
    }
    if (committed !== fresh) {
      console.error(
        'fixtures/contracts/suite/CheckoutSplitter.json is stale. Run: npx tsx conformance/customer/test-pages/compile-splitter.ts',
      );
      process.exit(1);
    }
  } else {
    mkdirSync(dirname(SPLITTER_ARTIFACT), { recursive: true });
    writeFileSync(SPLITTER_ARTIFACT, fresh);
    console.log(`Wrote ${SPLITTER_ARTIFACT}`);
  }
}
