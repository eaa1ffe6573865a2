// Finds the Anvil executable shipped in the npm platform package (@foundry-rs/anvil-<platform>-<arch>), the same
// way @foundry-rs/anvil's own launcher does, so no path is hard-coded and nothing is downloaded.
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { AnvilBinaryNotFoundError } from '../errors.ts';
import { requireFromHere } from '../paths.ts';

let resolved: string | undefined;

export function platformPackageName(platform = process.platform, arch = process.arch): string {
  const cpu = arch === 'x64' ? 'amd64' : arch;
  return `@foundry-rs/anvil-${platform}-${cpu}`;
}

export function resolveAnvilBinary(): string {
  if (resolved) return resolved;
  const override = process.env.STABLEPAY_ANVIL_BINARY;
  if (override) return (resolved = override);
  const pkg = platformPackageName();
  try {
    const manifest = requireFromHere.resolve(`${pkg}/package.json`);
    const binary = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    if (!existsSync(binary)) throw new Error(`${binary} is missing`);
    return (resolved = binary);
  } catch (cause) {
    throw new AnvilBinaryNotFoundError(pkg, cause);
  }
}
