// Where the chain layer's committed inputs live, resolved from this file so any working directory works.
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

export const projectRoot = join(here, '..', '..');
export const contractSourcesDir = join(here, 'contracts');
export const contractArtifactsDir = join(projectRoot, 'fixtures', 'contracts');
export const chainStateDir = join(projectRoot, 'fixtures', 'chain-state');
export const chainTablePath = join(projectRoot, 'fixtures', 'chains.json');

export const requireFromHere = createRequire(import.meta.url);

/** Absolute path of a file inside an installed package (resolved like `import` would). */
export function packageFile(packageName: string, file: string): string {
  const manifest = requireFromHere.resolve(`${packageName}/package.json`);
  return join(dirname(manifest), file);
}
