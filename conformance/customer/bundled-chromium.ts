// The Chromium that ships inside the npm package @sparticuz/chromium (a devDependency), so the browser tests need
// nothing from the system. The package unpacks its brotli archives into the temp directory on first use and then
// reuses them; it decides "already unpacked" by the binary's mere existence, so two test workers unpacking at once
// could launch a half-written file. A lock directory (mkdir is atomic) lets one process unpack while the rest wait.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import sparticuz from '@sparticuz/chromium';

const LOCK = join(tmpdir(), 'stablepay-chromium-unpack.lock');
/** Unpacking takes seconds; a lock this old belongs to a process that died mid-way. */
const STALE_LOCK_MS = 120_000;

/** Flags of the package's serverless set that switch off web security; the page's CSP and CORS must stay real. */
const WEAKENING_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);

async function acquireLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // The holder released it between our two calls: try again.
      }
      await delay(200);
    }
  }
}

/** Path of the packaged Chromium binary, unpacked on first use. */
export async function bundledChromiumPath(): Promise<string> {
  await acquireLock();
  try {
    return await sparticuz.executablePath();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The package's recommended flags for this build, minus the ones that weaken the browser's security model. */
export function bundledChromiumArgs(): string[] {
  return sparticuz.args
    .filter((flag) => !WEAKENING_FLAGS.has(flag))
    .map((flag) => (flag.startsWith('--disable-features=') ? withoutIsolationFeatures(flag) : flag))
    .filter((flag) => flag !== '--disable-features=');
}

/** Keeps site isolation on: the page is framed cross-origin by the merchant shop in the iframe test. */
function withoutIsolationFeatures(flag: string): string {
  const kept = flag
    .slice('--disable-features='.length)
    .split(',')
    .filter((feature) => feature !== 'IsolateOrigins' && feature !== 'site-per-process');
  return `--disable-features=${kept.join(',')}`;
}
