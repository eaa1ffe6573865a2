// Where an auditor finds the first failure in a conformance HTML report: opens each given file in Chromium at
// 1280 × 800 and prints the page height, the sideways overflow and the top (px) of the first failed check's heading
// (the first <h3> holding a `fail` badge; the same selector fits the reports of earlier versions).
//   npx tsx scripts/measure-report-layout.ts reports/conformance/conformance.html [other.html ...]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { launchChromium } from '@stablepay/conformance/chromium';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: npx tsx scripts/measure-report-layout.ts <report.html> [...]\n');
  process.exit(2);
}
const browser = await launchChromium();
try {
  // One page for every file: the bundled Chromium runs single-process, and closing its last page ends it.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (const file of files) {
    await page.goto(pathToFileURL(resolve(file)).href);
    const m = await page.evaluate(() => {
      const first = Array.from(document.querySelectorAll('h3')).find((h) => h.querySelector('span.r.fail'));
      return {
        pageHeight: document.documentElement.scrollHeight,
        sidewaysOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        firstFailureTop: first ? Math.round(first.getBoundingClientRect().top + window.scrollY) : null,
      };
    });
    process.stdout.write(
      `${file}: first failure at ${m.firstFailureTop ?? 'none'} px of ${m.pageHeight} px; sideways overflow ${m.sidewaysOverflow} px at 1280 px\n`,
    );
  }
} finally {
  await browser.close();
}
