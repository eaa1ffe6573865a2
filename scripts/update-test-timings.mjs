// Rewrites cli/test-support/test-timings.json (read by the slowest-first vitest sequencer) from a vitest JSON report:
//   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/vitest.json && node scripts/update-test-timings.mjs /tmp/vitest.json
// Keeps files of 5 s or more, in seconds. Measure on the machine CI runs on, with nothing else running.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: node scripts/update-test-timings.mjs <vitest json report>');
  process.exit(2);
}
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const seconds = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 1000)])
    .filter(([, s]) => s >= 5)
    .sort((a, b) => b[1] - a[1]),
);
const target = new URL('../cli/test-support/test-timings.json', import.meta.url);
const measured = `vitest run of ${new Date().toISOString().slice(0, 10)}: each test file's own duration in seconds, files of 5 s or more`;
writeFileSync(target, `${JSON.stringify({ measured, seconds }, null, 2)}\n`);
console.log(`${Object.keys(seconds).length} files written to ${fileURLToPath(target)}`);
