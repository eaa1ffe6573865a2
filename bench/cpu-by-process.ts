// Where a run's CPU goes, per kind of process: runs one command (by default a black-box conformance run with the
// browser customer, through the built CLI) and samples /proc every 300 ms, keeping for each process the largest
// utime + stime seen, grouped by what its command line says it is (the suite, the targets it started, each kind of
// Chromium process, the Anvil chains). Linux only. A process that exits between two samples loses at most its last
// 300 ms; processes that were running before the command started count only what they use after.
//
//   npx tsx bench/cpu-by-process.ts [--seed 29] [-- <command and arguments>]
//
// Prints a table (CPU-seconds, share of the run's total, processes seen) and the CPU share of the machine over the
// wall time (`npm run build` first for the default command). Used for issue 29: the default black-box run is bound by
// CPU on two cores, its `--workers 1` reference by waiting.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'stablepay.js');
const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const seed = (() => {
  const index = argv.indexOf('--seed');
  return index === -1 || (dashes !== -1 && index > dashes) ? '29' : (argv[index + 1] ?? '29');
})();
const command =
  dashes === -1
    ? [
        process.execPath,
        CLI,
        'conformance',
        '--target-command',
        `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start --no-control --no-demo-payment`,
        '--seed',
        seed,
        '--format',
        'json',
        '--report-dir',
        join(ROOT, 'reports', 'cpu-by-process'),
      ]
    : argv.slice(dashes + 1);

/** clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux this runs on). */
const TICKS = 100;

function kindOf(commandLine: string): string | null {
  // Kernel threads have no command line.
  if (commandLine.trim() === '') return null;
  // Chromium's helpers may show only `/proc/self/exe --type=…`.
  if (/chrom/i.test(commandLine) || /^\S+ --type=/.test(commandLine)) {
    const type = /--type=([a-z-]+)/.exec(commandLine)?.[1];
    return `chromium ${type ?? 'browser'}`;
  }
  if (/\banvil\b/.test(commandLine)) return 'anvil chains';
  if (/stablepay(\.js)? conformance/.test(commandLine)) return 'the suite';
  if (/stablepay(\.js)? start/.test(commandLine)) return 'targets (stablepay start)';
  if (commandLine.includes('cpu-by-process')) return null;
  return `other: ${commandLine.slice(0, 40)}`;
}

interface Seen {
  kind: string;
  base: number;
  last: number;
}

function cpuSeconds(pid: string): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

const seen = new Map<string, Seen>();
function sample(first: boolean): void {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const used = cpuSeconds(pid);
    if (used === null) continue;
    let entry = seen.get(pid);
    if (!entry) {
      let commandLine: string;
      try {
        commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        continue;
      }
      const kind = kindOf(commandLine);
      if (!kind) continue;
      entry = { kind, base: first ? used : 0, last: used };
      seen.set(pid, entry);
    }
    entry.last = Math.max(entry.last, used);
  }
}

const load = loadavg()[0]!.toFixed(1);
const started = performance.now();
sample(true);
const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const timer = setInterval(() => sample(false), 300);
const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
clearInterval(timer);
sample(false);
const wallS = (performance.now() - started) / 1000;

const byKind = new Map<string, { seconds: number; processes: number }>();
for (const entry of seen.values()) {
  const used = entry.last - entry.base;
  if (used < 0.05) continue;
  const row = byKind.get(entry.kind) ?? { seconds: 0, processes: 0 };
  row.seconds += used;
  row.processes += 1;
  byKind.set(entry.kind, row);
}
const total = [...byKind.values()].reduce((sum, row) => sum + row.seconds, 0);
const cores = availableParallelism();
console.log(
  `Command: ${command.map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ')}\n` +
    `Machine: ${cores} cores, load average ${load} at start; exit ${code}; wall ${wallS.toFixed(1)} s; ` +
    `${total.toFixed(1)} CPU-seconds, ${((100 * total) / (cores * wallS)).toFixed(0)} % of the machine over the run.\n`,
);
console.log('| processes of | CPU (s) | share | processes |');
console.log('| --- | --: | --: | --: |');
for (const [kind, row] of [...byKind].sort((x, y) => y[1].seconds - x[1].seconds))
  console.log(`| ${kind} | ${row.seconds.toFixed(1)} | ${((100 * row.seconds) / total).toFixed(0)} % | ${row.processes} |`);
process.exitCode = code ?? 1;
