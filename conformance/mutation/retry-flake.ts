// Flake of webhooks.retry-schedule against a target that sends only the documented delivery headers: the suite's own
// fixture service started as a black-box target (--target-command, the suite's chains, libfaketime clock), the whole
// suite run N times (no browser customer: the fixture has no page), the retry check's result read from each report.
// Run it on a quiet machine or say how loaded it was (the load average is printed per run).
//
//   npx tsx conformance/mutation/retry-flake.ts [runs=20]
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConformance } from '../index.ts';

const CHECK = 'webhooks.retry-schedule';
const main = fileURLToPath(new URL('../test-support/fixture-service/main.ts', import.meta.url));
const runs = Number(process.argv[2] ?? 20);
let failed = 0;
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const outcome = await runConformance({
    targetCommand: `exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(main)}`,
    customer: false,
    formats: ['json'],
    progress: false,
    write: () => undefined,
    reportDir: mkdtempSync(join(tmpdir(), 'stablepay-retry-flake-')),
  });
  const check = outcome.result.checks.find((c) => c.id === CHECK);
  if (check?.result !== 'pass') failed += 1;
  const why = check?.failures.map((f) => `${f.title}: ${f.message.split('\n')[0]}`).join(' | ') ?? 'not run';
  process.stdout.write(
    `run ${run}: ${check?.result ?? 'missing'} (${((Date.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)})${check?.result === 'pass' ? '' : ` ${why}`}\n`,
  );
}
process.stdout.write(`${CHECK}: ${failed} of ${runs} black-box runs did not pass\n`);
process.exit(failed === 0 ? 0 : 1);
