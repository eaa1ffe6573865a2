// The one place that knows where the package lives on disk. Files read at run time (the contract documents, the
// catalogue, fixtures, compiled contracts, baked chain state, the pay page's assets) are found from here, not from
// each module's own location: the built CLI runs bundled from dist/, where a module's location says nothing about
// the source tree. Walking up to our own package.json works from the sources and from the bundle alike.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'stablepay';

interface Manifest {
  name?: string;
  version?: string;
}

function findPackageRoot(start: string): { root: string; manifest: Manifest } {
  for (let dir = start; ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
      if (manifest.name === PACKAGE_NAME) return { root: dir, manifest };
    }
    if (dirname(dir) === dir) throw new Error(`no package.json named "${PACKAGE_NAME}" above ${start}`);
  }
}

const found = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of the package's root directory (where package.json is). */
export const packageRoot: string = found.root;

/** The package's version from package.json, e.g. for `--version` and User-Agent headers. */
export const packageVersion: string = typeof found.manifest.version === 'string' ? found.manifest.version : '0.0.0';

/** Absolute path of a file given relative to the package root, e.g. `fromPackageRoot('fixtures', 'chains.json')`. */
export function fromPackageRoot(...segments: string[]): string {
  return join(packageRoot, ...segments);
}
