// Where the chain layer's committed inputs live, resolved from the package root so any working directory works,
// and so does the built CLI (bundled into dist/, where this module's own location says nothing).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '@stablepay/contract/package-root';

export const projectRoot = packageRoot;
/** This layer's source folder: the bake scripts and Solidity sources the baked state is fingerprinted from. */
export const chainSourceDir = join(projectRoot, 'chains');
export const contractSourcesDir = join(chainSourceDir, 'contracts', 'solidity');
export const contractArtifactsDir = join(projectRoot, 'fixtures', 'contracts');
export const chainStateDir = join(projectRoot, 'fixtures', 'chain-state');
export const chainTablePath = join(projectRoot, 'fixtures', 'chains.json');

export const requireFromHere = createRequire(join(projectRoot, 'package.json'));

/** Absolute path of a file inside an installed package (resolved like `import` would). */
export function packageFile(packageName: string, file: string): string {
  const manifest = requireFromHere.resolve(`${packageName}/package.json`);
  return join(dirname(manifest), file);
}
