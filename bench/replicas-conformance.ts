// The black-box conformance suite against two simulators on one Postgres behind the round-robin balancer
// (`stablepay start --replicas 2 --database-url …`) and against one simulator on a database of its own, side by side
// in one run with one seed: each run's wall time and counts, and every check whose result or findings differ between
// the two (issue 28: "the conformance suite run against two replicas behind a balancer passes as against one").
// The suite starts each target itself, gives it its five chains (which the replicas share, through
// STABLEPAY_CHAINS_FILE) and moves its clock with libfaketime; `--instances 1`: one database behind the instance.
// Each seed runs twice: the target without its control API (`--no-control`: the suite knows only the public API, the
// page and its chains) and with it (`--with-control`: the suite also settles through the control API, whose held
// operations a confirm or fail through either replica must find). A throw-away Postgres cluster is started from the system's binaries (simulator/test-support/postgres-cluster.ts)
// and removed at the end.
//
//   npx tsx bench/replicas-conformance.ts [--seeds 2828,2829] [--workers n] [--modes no-control,with-control] [--keep-reports DIR]
//
// Exit 1 when a check differs or a run did not exit 0. Runs the built CLI (`npm run build` first).
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '@stablepay/conformance/defaults';
import { startPostgresCluster } from '@stablepay/simulator/test-support/postgres-cluster';
import { differences, runConformanceOnce, type MeasuredConformanceRun } from './support/conformance-runs.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
};
const seeds = (flag('--seeds') ?? '2828').split(',').filter(Boolean).map(Number);
const workers = Number(flag('--workers') ?? DEFAULTS.workers);
/** Keeps each run's JSON report there (`s<seed>-<mode>-r<replicas>.json`). */
const keep = flag('--keep-reports');
const modes = (flag('--modes') ?? 'no-control,with-control').split(',').filter(Boolean);

const counts = (run: MeasuredConformanceRun): string =>
  Object.entries(run.result.summary.counts ?? {})
    .filter(([, n]) => (n as number) > 0)
    .map(([result, n]) => `${n} ${result}`)
    .join(', ');

const startLoad = loadavg()[0]!.toFixed(1);
const cluster = await startPostgresCluster();
let failed = false;
const rows: string[] = [];
try {
  for (const [round, seed] of seeds.entries())
    for (const mode of modes) {
      // A seed given twice (`--seeds 2829,2829`, a rare difference hunted) runs again on databases and reports of its own.
      const repeat = seeds.slice(0, round).filter((s) => s === seed).length;
      const again = repeat > 0 ? String(repeat + 1) : '';
      const targetControl = mode === 'with-control';
      const runs: MeasuredConformanceRun[] = [];
      for (const replicas of [2, 1]) {
        const url = cluster.createDatabase(`r${replicas}_s${seed}_${targetControl ? 'c' : 'n'}${again && `_${again}`}`);
        const targetFlags = replicas > 1 ? ['--replicas', String(replicas), '--database-url', url] : ['--database-url', url];
        console.error(
          `seed ${seed}, ${mode}: black-box against ${replicas === 1 ? 'one simulator' : `${replicas} replicas`} on one Postgres …`,
        );
        const keepAs = keep ? join(keep, `s${seed}${again && `-${again}`}-${mode}-r${replicas}.json`) : undefined;
        runs.push(
          await runConformanceOnce('black-box', { workers, seed, instances: 1, targetFlags, targetControl, ...(keepAs ? { keepAs } : {}) }),
        );
      }
      const [two, one] = runs as [MeasuredConformanceRun, MeasuredConformanceRun];
      const differ = differences(one.result, two.result);
      if (differ.length > 0 || two.exitCode !== 0 || one.exitCode !== 0) failed = true;
      rows.push(
        `| ${seed} | ${mode} | ${counts(two)} (exit ${two.exitCode}, ${(two.wallMs / 1000).toFixed(1)} s) | ${counts(one)} (exit ${one.exitCode}, ${(one.wallMs / 1000).toFixed(1)} s) | ${differ.length === 0 ? 'none' : differ.join('; ')} |`,
      );
    }
} finally {
  cluster.stop();
}
console.log(
  `Machine: ${availableParallelism()} cores, Node ${process.version}, load average ${startLoad} at start and ${loadavg()[0]!.toFixed(1)} at the end; black-box, --workers ${workers}, --instances 1.\n`,
);
console.log('| seed | target | two replicas on one Postgres | one simulator on one Postgres | checks whose result or findings differ |');
console.log('| --: | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
process.exitCode = failed ? 1 : 0;
