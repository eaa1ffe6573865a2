// The conformance suite's wall time at --workers 1 and at the default worker count, side by side in one run: a full
// black-box run with the browser customer (the suite starts `stablepay start --no-control` itself, moves its clock
// with libfaketime, pays through its page in Chromium) and a run with the control API (against `stablepay start` in a
// process of its own). Each row: wall time of the CLI, the run's own duration, the sum of the checks' own times (what
// a one-at-a-time run cannot beat), the ratio to the --workers 1 run of the same kind measured in this bench run, the
// CPU the host took from the machine meanwhile (steal, /proc/stat: a CPU-bound run slows by it), the host probe (a fixed
// single-threaded task timed right before the run: a slower host shows there even when nothing shows as stolen, and
// slows a run bound by the CPU more than one that waits), and whether every
// check's verdict and findings equal that reference's (one seed for all). With several rounds, each round's own ratio
// follows the table.
//
//   npx tsx bench/conformance-workers.ts [--rounds 1] [--workers n] [--seed 29] [--only black-box|control] [--instances 2,3,4] [--keep-reports DIR] [--readme]
//
// `--instances` adds black-box rows at the default worker count with that many target instances each (the main one
// and its spares, conformance/black-box/spare-instances.ts), to choose how many spares pay on this machine.
// `--rounds` repeats the four runs interleaved (the median round per row is shown). `--readme` writes the table into
// bench/README.md between the conformance-workers markers.
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '@stablepay/conformance/defaults';
import { differences, runConformanceOnce, type MeasuredConformanceRun, type RunKind } from './support/conformance-runs.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
};
const rounds = Number(flag('--rounds') ?? 1);
const workers = Number(flag('--workers') ?? DEFAULTS.workers);
const seed = Number(flag('--seed') ?? 29);
const only = flag('--only');
const readme = argv.includes('--readme');
/** Keeps each run's JSON report there (`<kind>-w<workers>-r<round>.json`) to look into. */
const keep = flag('--keep-reports');
/** Black-box runs at the default worker count with these --instances, beside the one at the suite's default. */
const instanceCounts = (flag('--instances') ?? '').split(',').filter(Boolean).map(Number);

/** One measured configuration: a worker count, and for a black-box run optionally an instance count. */
interface Setting {
  workers: number;
  instances?: number;
}
const settingsOf = (kind: Kind): Setting[] => [
  { workers: 1 },
  { workers },
  ...(kind === 'black-box' ? instanceCounts.map((instances) => ({ workers, instances })) : []),
];
const same = (m: Measured, setting: Setting) => m.workers === setting.workers && m.instances === setting.instances;

type Kind = RunKind;
type Measured = MeasuredConformanceRun;

const measure = (kind: Kind, setting: Setting, round: number): Promise<Measured> => {
  const name = `${kind}-w${setting.workers}${setting.instances ? `-i${setting.instances}` : ''}-r${round + 1}.json`;
  return runConformanceOnce(kind, { ...setting, seed, ...(keep ? { keepAs: join(keep, name) } : {}) });
};
const describe = (setting: Setting) => `--workers ${setting.workers}${setting.instances ? ` --instances ${setting.instances}` : ''}`;

const kinds: Kind[] = only ? [only as Kind] : ['black-box', 'control'];
const load = loadavg()[0]!.toFixed(1);
const startedAt = new Date();
const all: Measured[] = [];
for (let round = 0; round < rounds; round++) {
  for (const kind of kinds) {
    for (const setting of settingsOf(kind)) {
      process.stderr.write(`round ${round + 1}/${rounds}: ${kind} at ${describe(setting)} …\n`);
      const measured = await measure(kind, setting, round);
      process.stderr.write(`  ${(measured.wallMs / 1000).toFixed(1)} s, exit ${measured.exitCode}\n`);
      all.push(measured);
    }
  }
}

const median = (rows: Measured[]): Measured => [...rows].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(rows.length / 2)]!;
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const lines = [
  '| run | --workers | wall (s) | run (s) | sum of checks (s) | × --workers 1 | CPU stolen (s) | host probe (ms) | exit | verdicts as --workers 1 |',
  '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --- |',
];
const notes: string[] = [];
for (const kind of kinds) {
  const reference = median(all.filter((m) => m.kind === kind && m.workers === 1));
  for (const setting of settingsOf(kind)) {
    const count = setting.workers;
    const row = median(all.filter((m) => m.kind === kind && same(m, setting)));
    const diff = row === reference ? [] : differences(reference.result, row.result);
    if (diff.length > 0) notes.push(`${kind} at ${describe(setting)}:`, ...diff.map((d) => `  ${d}`));
    for (const check of row.result.checks.filter((c) => c.result === 'error'))
      notes.push(`${kind} at ${describe(setting)}: ${check.id} error: ${check.error?.message.split('\n')[0]}`);
    const label =
      kind === 'black-box'
        ? `black-box with the browser customer${setting.instances ? `, --instances ${setting.instances}` : ''}`
        : 'control API';
    lines.push(
      `| ${label} | ${count} | ${seconds(row.wallMs)} | ${seconds(row.runMs)} | ${seconds(row.checksMs)} | ${(row.wallMs / reference.wallMs).toFixed(2)} | ${row.stolenMs === undefined ? '–' : seconds(row.stolenMs)} | ${row.probeMs.toFixed(0)} | ${row.exitCode} | ${row === reference ? '(reference)' : diff.length === 0 ? 'identical' : `${diff.length} differ`} |`,
    );
  }
}
// Each round's own ratio (its run against the --workers 1 run of the same round, measured minutes apart): the spread
// of the host's speed shows here, where the median rows above hide it.
const roundLines: string[] = [];
if (rounds > 1)
  for (const kind of kinds)
    for (const setting of settingsOf(kind).filter((s) => s.workers !== 1 || s.instances !== undefined)) {
      const perRound = Array.from({ length: rounds }, (_, round) => {
        const inRound = all.filter((m) => m.kind === kind).slice(round * settingsOf(kind).length, (round + 1) * settingsOf(kind).length);
        const reference = inRound.find((m) => m.workers === 1 && m.instances === undefined)!;
        const row = inRound.find((m) => same(m, setting))!;
        return { ratio: (row.wallMs / reference.wallMs).toFixed(2), probes: `${reference.probeMs.toFixed(0)}/${row.probeMs.toFixed(0)}` };
      });
      roundLines.push(
        `${kind} at ${describe(setting)}, each round × its --workers 1 run: ${perRound.map((r) => r.ratio).join(' / ')} (host probe before the two runs, ms: ${perRound.map((r) => r.probes).join(', ')}).`,
      );
    }
const header = `Machine: ${availableParallelism()} cores, Node ${process.version}, load average ${load} at start and ${loadavg()[0]!.toFixed(1)} at the end, ${startedAt.toISOString().slice(0, 10)}; ${rounds} round(s), seed ${seed}, the median round per row.`;
const table = `${header}\n\n${lines.join('\n')}\n${roundLines.length ? `\n${roundLines.join('\n')}\n` : ''}`;
process.stdout.write(`${table}${notes.length ? `\n${notes.join('\n')}\n` : ''}`);

if (readme) {
  const path = join(import.meta.dirname, 'README.md');
  const text = await readFile(path, 'utf8');
  const start = '<!-- bench:conformance-workers:start -->';
  const end = '<!-- bench:conformance-workers:end -->';
  const command = `\`npx tsx bench/conformance-workers.ts ${argv.filter((a) => a !== '--readme').join(' ')}\``.replace(/ `$/, '`');
  await writeFile(
    path,
    `${text.slice(0, text.indexOf(start) + start.length)}\nCommand: ${command}. ${table}${text.slice(text.indexOf(end))}`,
  );
}
