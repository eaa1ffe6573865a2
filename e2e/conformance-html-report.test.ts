// The conformance HTML report as an auditor opens it: in real Chromium at 1280 × 800, a run with 10 failed checks
// (long curl and replay strings) over the whole requirement catalogue. The verdict and the first failure are on the
// first screen, nothing scrolls sideways (page or table), and the matrix filters and sorts by status, level and
// section with its inline script. A screenshot of the first screen is left in test-results/screenshots/.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '@stablepay/conformance/html-report';
import { largeRun } from '@stablepay/conformance/test-support/large-run';
import { launchChromium } from '@stablepay/conformance/chromium';
import { SCREENSHOT_DIR } from './support/screenshots.ts';

const VIEWPORT = { width: 1280, height: 800 };

describe('conformance HTML report in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const run = largeRun(10);

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-html-'));
    const file = join(dir, 'conformance.html');
    writeFileSync(file, renderHtml(run));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(file).href);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the verdict and the first failure on the first screen, with no sideways scroll', async () => {
    const layout = await page.evaluate(() => {
      const first = document.querySelector('#failures .check')!.getBoundingClientRect();
      const tables = Array.from(document.querySelectorAll('table')).map((t) => ({
        id: t.id,
        overflow: t.scrollWidth - t.clientWidth,
        right: t.getBoundingClientRect().right,
      }));
      return {
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        firstFailureTop: first.top + window.scrollY,
        verdict: document.getElementById('verdict')!.textContent,
        tables,
        widestPre: Math.max(...Array.from(document.querySelectorAll('pre')).map((p) => p.getBoundingClientRect().right)),
        failureCount: document.querySelectorAll('#failures .check').length,
      };
    });
    expect(layout.verdict).toBe('Not conformant: 10 failed checks');
    expect(layout.failureCount).toBe(10);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    expect(layout.firstFailureTop).toBeGreaterThan(0);
    expect(layout.firstFailureTop).toBeLessThan(VIEWPORT.height);
    for (const table of layout.tables) {
      expect(table.overflow, `table ${table.id} overflows`).toBeLessThanOrEqual(0);
      expect(table.right).toBeLessThanOrEqual(VIEWPORT.width);
    }
    expect(layout.widestPre).toBeLessThanOrEqual(VIEWPORT.width);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const shot = join(SCREENSHOT_DIR, 'conformance-report-first-screen.png');
    await page.screenshot({ path: shot });
    expect(existsSync(shot)).toBe(true);
  });

  it('filters the matrix by status, level and section', async () => {
    const rows = run.traceability;
    const visible = () => page.locator('#matrix-table tbody tr:not([hidden])').count();
    expect(await visible()).toBe(rows.length);
    await page.selectOption('#f-status', 'fail');
    expect(await visible()).toBe(rows.filter((r) => r.result === 'fail').length);
    expect(await page.locator('#f-shown').textContent()).toBe(
      `${rows.filter((r) => r.result === 'fail').length} of ${rows.length} requirements shown`,
    );
    await page.selectOption('#f-status', '');
    await page.selectOption('#f-level', 'assumed');
    expect(await visible()).toBe(rows.filter((r) => r.requirement.level === 'assumed').length);
    const section = rows[0]!.requirement.section;
    await page.selectOption('#f-section', section);
    expect(await visible()).toBe(rows.filter((r) => r.requirement.level === 'assumed' && r.requirement.section === section).length);
    await page.selectOption('#f-level', '');
    await page.selectOption('#f-section', '');
    await page.fill('#f-text', rows[5]!.requirement.id);
    expect(await visible()).toBeGreaterThanOrEqual(1);
    await page.fill('#f-text', '');
  });

  it('sorts the matrix by result (worst first), then by level and section', async () => {
    const column = (key: string) =>
      page.locator('#matrix-table tbody tr').evaluateAll((trs, k) => trs.map((tr) => (tr as HTMLElement).dataset[k as string]!), key);
    await page.click('#matrix-table th[data-key="rank"] button');
    const ranks = (await column('rank')).map(Number);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect((await column('status'))[0]).toBe('fail');
    await page.click('#matrix-table th[data-key="rank"] button');
    expect((await column('status'))[0]).toBe('pass');
    await page.click('#matrix-table th[data-key="level"] button');
    const levels = await column('level');
    expect(levels).toEqual([...levels].sort((a, b) => a.localeCompare(b)));
    await page.click('#matrix-table th[data-key="section"] button');
    const sections = await column('section');
    expect(sections).toEqual([...sections].sort((a, b) => a.localeCompare(b)));
    expect(await page.getAttribute('#matrix-table th[data-key="section"]', 'aria-sort')).toBe('ascending');
  });
});
