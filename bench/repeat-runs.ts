// Flakes: the conformance suite run N times against the simulator at one worker count (default: the default worker
// count), black-box with the browser customer and with the control API, and per kind the checks whose verdict (result
// and findings) was not the same in every run. A check that passes in some runs and not in others is a flaky check
// (of the suite or the simulator): the issue's bar is none in 10 runs. Every run has the same seed (29, or --seed), so a
// difference is a flake, not another generated case; --vary-seed gives run i the seed 2900+i (a property failing on one
// generated case then shows up too).
//
//   npx tsx bench/repeat-runs.ts [--runs 10] [--workers n] [--seed s | --vary-seed] [--only black-box|control] [--keep-reports DIR]
//
// Prints, per kind, the runs' wall times and exit codes and each check that differed with its verdict per run; exit 1
// when any check differed. Runs the built CLI (`npm run build` first).
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '@stablepay/conformance/defaults';
import { runConformanceOnce, verdicts, type MeasuredConformanceRun, type RunKind } from './support/conformance-runs.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
};
const runs = Number(flag('--runs') ?? 10);
const workers = Number(flag('--workers') ?? DEFAULTS.workers);
const fixedSeed = argv.includes('--vary-seed') ? undefined : (flag('--seed') ?? '29');
const only = flag('--only') as RunKind | undefined;
const keep = flag('--keep-reports');
const kinds: RunKind[] = only ? [only] : ['black-box', 'control'];

const startLoad = loadavg()[0]!.toFixed(1);
const byKind = new Map<RunKind, MeasuredConformanceRun[]>(kinds.map((kind) => [kind, []]));
// Interleaved, so a loaded spell of the machine falls on both kinds.
for (let run = 0; run < runs; run++) {
  for (const kind of kinds) {
    const seed = fixedSeed === undefined ? 2900 + run : Number(fixedSeed);
    process.stderr.write(`run ${run + 1}/${runs}: ${kind} at --workers ${workers}, seed ${seed} …\n`);
    const measured = await runConformanceOnce(kind, {
      workers,
      seed,
      ...(keep ? { keepAs: join(keep, `${kind}-run${run + 1}.json`) } : {}),
    });
    process.stderr.write(`  ${(measured.wallMs / 1000).toFixed(1)} s, exit ${measured.exitCode}\n`);
    byKind.get(kind)!.push(measured);
  }
}

let flaky = 0;
const lines = [
  `Machine: ${availableParallelism()} cores, Node ${process.version}, load average ${startLoad} at start and ${loadavg()[0]!.toFixed(1)} at the end; ${runs} run(s) per kind at --workers ${workers}, seeds ${fixedSeed ?? `2900..${2900 + runs - 1}`}.`,
  '',
];
for (const [kind, measured] of byKind) {
  const perRun = measured.map((m) => verdicts(m.result));
  const ids = [...new Set(perRun.flatMap((v) => [...v.keys()]))];
  const differing = ids.filter((id) => new Set(perRun.map((v) => v.get(id) ?? 'absent')).size > 1);
  flaky += differing.length;
  lines.push(
    `${kind}: ${measured.length} runs, ${ids.length} checks, ${differing.length} differing; wall ${measured.map((m) => (m.wallMs / 1000).toFixed(0)).join(', ')} s; exit ${measured.map((m) => m.exitCode).join(', ')}`,
  );
  for (const id of differing) {
    lines.push(`  ${id}`);
    perRun.forEach((v, i) => lines.push(`    run ${i + 1}: ${v.get(id) ?? 'absent'}`));
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = flaky === 0 ? 0 : 1;
