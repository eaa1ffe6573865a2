// npx tsx conformance/mutation/run.ts [--write]: run the mutation self-test, print the table,
// and with --write store it in conformance/mutation/RESULTS.md. Exit 1 unless every fault is caught
// and the baseline is clean.
import { writeFile } from 'node:fs/promises';
import { renderResults } from './results-table.ts';
import { runMutation } from './run-mutation.ts';

const report = await runMutation();
const markdown = renderResults(report);
process.stdout.write(markdown);
if (process.argv.includes('--write')) {
  const target = new URL('./RESULTS.md', import.meta.url);
  await writeFile(target, markdown);
  process.stdout.write(`\nwritten to ${target.pathname}\n`);
}
const clean = report.baseline.counts.failed === 0 && report.baseline.counts.warned === 0;
process.exitCode = clean && report.caught === report.injected ? 0 : 1;
