// npx tsx conformance/mutation/strict-repeat.ts [--times 20] [--only ids] [--chains]: runs the whole
// suite again and again against a fresh in-process simulator under --strict and counts the runs
// with any failure (a flaky check shows up here as a false failure). Exit 1 on any failing run.
import { startServer } from '@stablepay/simulator/server';
import { runConformance } from '../index.ts';
import { quietLogger } from '../test-support/simulator.ts';

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const times = Number(arg('times') ?? 20);
const only = arg('only')?.split(',') ?? [];
const chains = process.argv.includes('--chains');

let failing = 0;
const started = performance.now();
for (let run = 1; run <= times; run++) {
  const server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, chains });
  try {
    const seed = 1000 + run;
    const { result } = await runConformance({
      baseUrl: server.url,
      apiKey: server.simulator.defaultApiKey,
      strict: true,
      only,
      seed,
      formats: ['console'],
      progress: false,
      write: () => {},
    });
    const bad = result.checks.filter((c) => c.result === 'fail' || c.result === 'warn' || c.result === 'not-exercised');
    if (bad.length) failing++;
    process.stdout.write(
      `run ${run}/${times} seed ${seed}: ${result.summary.counts.passed} passed, ${result.summary.counts.failed} failed (${(result.summary.durationMs / 1000).toFixed(1)} s)\n`,
    );
    for (const check of bad)
      process.stdout.write(
        `  ${check.id} ${check.result}: ${check.failures.map((f) => `${f.requirement} ${f.title}: ${f.message.slice(0, 300)}`).join(' | ') || check.reason}\n`,
      );
  } finally {
    await server.close();
  }
}
process.stdout.write(
  `${times - failing}/${times} strict runs clean, ${failing} with failures, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
);
process.exitCode = failing === 0 ? 0 : 1;
