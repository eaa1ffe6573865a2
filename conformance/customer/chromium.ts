// Chromium for the browser tests and the suite's customer agent, driven by playwright-core (never a browser downloaded by Playwright). By default the
// build shipped inside the npm package @sparticuz/chromium, so `npm install && npm test` needs no system package;
// STABLEPAY_CHROMIUM points at another Chromium binary instead (e.g. Debian's /usr/bin/chromium).
// STABLEPAY_SKIP_BROWSER=1 skips the browser tests with the reason shown.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { bundledChromiumArgs, bundledChromiumPath } from './bundled-chromium.ts';

const SYSTEM_CHROMIUM = process.env.STABLEPAY_CHROMIUM;

/** Flags for a system Chromium, which runs as root in CI and has no GPU here. */
const SYSTEM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests are skipped, or undefined when they run. */
export const browserSkipReason: string | undefined =
  process.env.STABLEPAY_SKIP_BROWSER === '1'
    ? 'STABLEPAY_SKIP_BROWSER=1: browser end-to-end tests of the hosted payment page were skipped on request'
    : undefined;

export class ChromiumMissingError extends Error {
  constructor(path: string) {
    super(
      [
        `STABLEPAY_CHROMIUM points at ${path}, which does not exist.`,
        'Unset it to use the Chromium shipped in the npm package @sparticuz/chromium, or set STABLEPAY_SKIP_BROWSER=1 to skip these tests.',
      ].join('\n'),
    );
    this.name = 'ChromiumMissingError';
  }
}

/**
 * Playwright's own Ctrl-C handling closes the browser and exits at once; the suite handles the signals itself (the
 * running check ends, the reports are written, then the browser is closed). Its exit hook still kills the browser.
 */
const OWN_SIGNALS = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } as const;

/**
 * `multiProcess`: drop the packaged build's --single-process/--no-zygote (made for serverless hosts). A single-process
 * Chromium dies (SIGTRAP) when a browser context is closed while it runs, so a caller that opens and closes one
 * context per payment — the conformance customer — needs the ordinary process model.
 */
export async function launchChromium(options: { multiProcess?: boolean } = {}): Promise<Browser> {
  if (SYSTEM_CHROMIUM !== undefined) {
    if (!existsSync(SYSTEM_CHROMIUM)) throw new ChromiumMissingError(SYSTEM_CHROMIUM);
    return chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: SYSTEM_ARGS, headless: true, ...OWN_SIGNALS });
  }
  const args = options.multiProcess ? customerArgs(bundledChromiumArgs()) : bundledChromiumArgs();
  return chromium.launch({ executablePath: await bundledChromiumPath(), args, headless: true, ...OWN_SIGNALS });
}

/**
 * The customer's flags: the packaged build's without --single-process/--no-zygote (see launchChromium) and without its
 * GPU emulation (SwiftShader GL in the browser process, made for hosts with no GPU that must draw WebGL): the pay pages
 * draw nothing that needs it, and software compositing without it took a quarter less of Chromium's CPU over a
 * black-box run (38.6 s -> 30.2 s, bench/conformance-timeline.ts --black-box), the run's largest consumer on 2 cores.
 */
export function customerArgs(packaged: readonly string[]): string[] {
  const dropped = /^--(single-process|no-zygote|use-gl|use-angle|enable-unsafe-swiftshader|in-process-gpu|ignore-gpu-blocklist)(=|$)/;
  return [...packaged.filter((flag) => !dropped.test(flag)), '--disable-gpu'];
}
