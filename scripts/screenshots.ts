// Makes the pictures in docs/screenshots/ from the real thing, so none is made by hand or goes stale unseen:
//   docs-offline.png        /docs of a running simulator in Chromium with every request off the machine refused
//   conformance-report.png  the first screen of the HTML report of a real conformance run against a simulator started
//                           with three injected faults (the verdict and the first failure)
//   npm run screenshots            (npx tsx scripts/screenshots.ts [outDir])
// Exit 2 with one sentence when something cannot be made; nothing is left running.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '@stablepay/conformance/chromium';
import { startServer, type RunningServer } from '@stablepay/simulator/server';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = resolve(process.argv[2] ?? join(root, 'docs', 'screenshots'));
const VIEWPORT = { width: 1280, height: 800 };
const KEY = 'pk_screenshots12345678';
/** Caught by three quick checks (auth.unknown-key, pagination.limit-bounds, create.field-rules). */
const FAULTS = ['unknown-key-403', 'list-limit-unbounded', 'title-truncated-not-refused'];
const quiet = { info() {}, error() {} };

async function docsOffline(page: Page, file: string): Promise<void> {
  const server = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet });
  const refused: string[] = [];
  try {
    const origin = new URL(server.url).origin;
    // The network is cut: anything that is not the simulator itself (or inline data) is refused and counted.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      refused.push(url);
      return route.abort('internetdisconnected');
    });
    await page.goto(`${server.url}/docs#/payments/createpayment`);
    await page.getByText('Create a payment', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: file });
  } finally {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await server.close();
  }
  if (refused.length > 0) throw new Error(`/docs asked the network for ${refused.join(', ')}`);
}

async function conformanceReport(page: Page, file: string): Promise<void> {
  const server: RunningServer = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, faults: FAULTS });
  const reports = mkdtempSync(join(tmpdir(), 'stablepay-shots-'));
  try {
    const args = [
      join(root, 'bin', 'stablepay.js'),
      'conformance',
      '--base-url',
      server.url,
      '--only',
      'auth.unknown-key,pagination.limit-bounds,create.field-rules',
      '--seed',
      '1',
      '--format',
      // JSON beside the HTML: the replay lines the report prints read it.
      'html,json',
      '--report-dir',
      reports,
      '--no-progress',
    ];
    // A child waited for without blocking: the simulator it talks to answers from this process.
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, args, { env: { ...process.env, STABLEPAY_API_KEY: KEY }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      // Its stderr only when it did not end as expected (the bundled Chromium logs much there).
      child.on('exit', (exitCode) => {
        if (exitCode !== 1) process.stderr.write(stderr.replace(/^\[pid=.*\n?/gm, ''));
      });
      child.on('exit', (exitCode) => done(exitCode));
    });
    // Exit 1 is the expected verdict (not conformant); anything else means there is no report to show.
    if (code !== 1) throw new Error(`the conformance run ended with exit ${code}, not 1 (failures found)`);
    const html = join(reports, 'conformance.html');
    if (!existsSync(html)) throw new Error(`the run wrote no ${html}`);
    await page.goto(pathToFileURL(html).href);
    await page.locator('#verdict').waitFor();
    await page.screenshot({ path: file });
  } finally {
    await server.close();
    rmSync(reports, { recursive: true, force: true });
  }
}

mkdirSync(outDir, { recursive: true });
const browser = await launchChromium();
try {
  // One page for both: the bundled Chromium runs single-process, and closing its last page ends it.
  const page = await browser.newPage({ viewport: VIEWPORT });
  await docsOffline(page, join(outDir, 'docs-offline.png'));
  await conformanceReport(page, join(outDir, 'conformance-report.png'));
  process.stdout.write(`screenshots: docs-offline.png and conformance-report.png written to ${outDir}\n`);
} catch (error) {
  process.stderr.write(`screenshots: ${(error as Error).message}\n`);
  process.exitCode = 2;
} finally {
  await browser.close();
}
