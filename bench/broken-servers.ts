// The suite against 14 kinds of broken server, each with the control API probed (the broken server answers at
// <base>/control/v1 as everywhere) and with --no-control: exit code, wall time, peak RSS of the suite's process,
// the first line it printed, and whether a stack trace, a TypeError or a leftover process was seen.
//
//   npx tsx bench/broken-servers.ts [--kinds a,b] [--parallel 2] [--kill-after 200] [--bin-dir <checkout>] [--readme] [-- extra flags]
//
// Flags after `--` go to every run (e.g. `-- --request-timeout 2`). `--bin-dir` runs another checkout's built
// bin/stablepay.js (e.g. main, for a before/after in one session). Runs use the defaults unless told otherwise.
// `--readme` writes the table into bench/README.md between the broken-servers markers.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BROKEN_KIND_TEXT, BROKEN_KINDS, startBrokenServer, type BrokenKind } from '@stablepay/conformance/test-support/broken-servers';
import { runMeasuredCli, type MeasuredRun } from '@stablepay/conformance/test-support/measured-cli';

const argv = process.argv.slice(2);
const dashDash = argv.indexOf('--');
const own = dashDash === -1 ? argv : argv.slice(0, dashDash);
const extra = dashDash === -1 ? [] : argv.slice(dashDash + 1);
const flag = (name: string): string | undefined => {
  const index = own.indexOf(name);
  return index === -1 ? undefined : own[index + 1];
};
const kinds = (flag('--kinds')?.split(',') ?? [...BROKEN_KINDS]) as BrokenKind[];
const parallel = Number(flag('--parallel') ?? 2);
const killAfterMs = Number(flag('--kill-after') ?? 200) * 1000;
const binDir = flag('--bin-dir');
const readme = own.includes('--readme');

interface Row {
  kind: BrokenKind;
  control: boolean;
  run: MeasuredRun;
}

const STACK = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

function firstLine(run: MeasuredRun): string {
  const line = (run.stderr.trim() || run.stdout.trim()).split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
}

function lastLine(run: MeasuredRun): string {
  return run.stdout.trim().split('\n').at(-1) ?? '';
}

async function one(kind: BrokenKind, control: boolean): Promise<Row> {
  const server = await startBrokenServer(kind);
  const reportDir = await mkdtemp(join(tmpdir(), `broken-${kind}-`));
  try {
    const args = [
      'conformance',
      '--base-url',
      server.url,
      '--api-key',
      'pk_brokenServerBench0001',
      '--report-dir',
      reportDir,
      '--seed',
      '1',
      ...(control ? [] : ['--no-control']),
      ...extra,
    ];
    const run = await runMeasuredCli({ args, killAfterMs, ...(binDir ? { bin: resolve(binDir, 'bin/stablepay.js') } : {}) });
    return { kind, control, run };
  } finally {
    await server.close();
    await rm(reportDir, { recursive: true, force: true });
  }
}

const cells = kinds.flatMap((kind) => [true, false].map((control) => ({ kind, control })));
const rows: Row[] = [];
const startedAt = new Date();
const load = loadavg()[0]!.toFixed(1);
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (next < cells.length) {
      const { kind, control } = cells[next++]!;
      const row = await one(kind, control);
      rows.push(row);
      process.stderr.write(
        `${kind} ${control ? 'control' : 'no-control'}: exit ${row.run.code ?? row.run.signal} in ${(row.run.wallMs / 1000).toFixed(1)} s\n`,
      );
    }
  }),
);
rows.sort(
  (a, b) =>
    cells.findIndex((c) => c.kind === a.kind && c.control === a.control) -
    cells.findIndex((c) => c.kind === b.kind && c.control === b.control),
);

const lines: string[] = [];
lines.push(
  `Machine: Node ${process.version}, load average ${load} at start, ${startedAt.toISOString().slice(0, 16)}Z, ${parallel} run(s) at a time. ${binDir ? `bin: ${binDir}. ` : ''}Extra flags: ${extra.join(' ') || '(none: defaults)'}.`,
);
lines.push('');
lines.push('| server | control | exit | wall (s) | peak RSS (MB) | stack/TypeError | left running | first line | last line of stdout |');
lines.push('|---|---|---:|---:|---:|---|---|---|---|');
for (const { kind, control, run } of rows) {
  const output = `${run.stdout}\n${run.stderr}`;
  const exit = run.killed ? `killed at ${killAfterMs / 1000} s` : (run.code ?? run.signal);
  const flags = [STACK.test(output) ? 'stack' : '', /TypeError/.test(output) ? 'TypeError' : ''].filter(Boolean).join(', ') || 'no';
  const cell = (text: string) => `\`${text.replace(/\|/g, '\\|').replace(/`/g, "'")}\``;
  lines.push(
    `| ${BROKEN_KIND_TEXT[kind]} | ${control ? 'probed' : '--no-control'} | ${exit} | ${(run.wallMs / 1000).toFixed(1)} | ${Math.round(run.peakRssBytes / 1e6)} | ${flags} | ${run.leftover.length ? run.leftover.join(' ') : 'nothing'} | ${cell(firstLine(run))} | ${cell(lastLine(run))} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
if (readme) {
  const path = new URL('./README.md', import.meta.url);
  const text = await readFile(path, 'utf8');
  const [start, end] = ['<!-- bench:broken-servers:start -->', '<!-- bench:broken-servers:end -->'];
  if (!text.includes(start) || !text.includes(end)) throw new Error(`bench/README.md has no ${start} … ${end} section`);
  const command = `\`npx tsx bench/broken-servers.ts ${argv.filter((a) => a !== '--readme').join(' ')}\``.replace(/ `$/, '`');
  await writeFile(
    path,
    `${text.slice(0, text.indexOf(start) + start.length)}\nCommand: ${command}. ${lines.join('\n')}\n${text.slice(text.indexOf(end))}`,
  );
}
