// Chromium for the browser tests: Debian's package at /usr/bin/chromium, driven by playwright-core
// (never a downloaded browser). Missing chromium fails the tests with the install command, unless
// STABLEPAY_SKIP_BROWSER=1 asks to skip them.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.STABLEPAY_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the browser tests are skipped, or undefined when they run. */
export const browserSkipReason: string | undefined =
  process.env.STABLEPAY_SKIP_BROWSER === '1' ? 'STABLEPAY_SKIP_BROWSER=1: browser end-to-end tests of the hosted payment page were skipped on request' : undefined;

export class ChromiumMissingError extends Error {
  constructor() {
    super(
      [
        `Chromium was not found at ${CHROMIUM_PATH}; the hosted payment page's browser tests need it.`,
        'Install it (Debian/Ubuntu, as root): apt-get update && apt-get install -y --no-install-recommends chromium',
        'Or point STABLEPAY_CHROMIUM at another Chromium binary, or set STABLEPAY_SKIP_BROWSER=1 to skip these tests.',
      ].join('\n'),
    );
    this.name = 'ChromiumMissingError';
  }
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new ChromiumMissingError();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}
