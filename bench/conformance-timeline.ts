// Where a conformance run's wall time goes: each check's start, the moment it was alone (a clock mover's exclusive
// phase), and its end, as offsets from the run's start, in start order, with the checks running beside it. The table
// shows the schedule the --workers figures of conformance-workers.ts come from (which check waited, which ran alone).
//
//   npx tsx bench/conformance-timeline.ts [--workers n] [--seed 29] [--black-box] [--instances n] [--customer-parallel n] [--only IDS]
//
// Against the simulator with its control API (started in this process), or, with --black-box, against
// `stablepay start --no-control` started by the suite (libfaketime, the browser customer). Run from the sources.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '@stablepay/conformance/defaults';
import { runConformance, type ConformanceOptions, type ProgressEvent } from '../conformance/index.ts';
import { startSimulator } from '../conformance/test-support/simulator.ts';
import { CLI } from './support/servers.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
};
const workers = Number(flag('--workers') ?? DEFAULTS.workers);
const seed = Number(flag('--seed') ?? 29);
const blackBox = argv.includes('--black-box');
const parallel = flag('--customer-parallel');
const only = flag('--only');
const instances = flag('--instances');

interface Span {
  id: string;
  start: number;
  alone?: number;
  end?: number;
  result?: string;
  /** The spare target instance it ran on (black-box lanes). */
  lane?: string;
}

const spans = new Map<string, Span>();
let t0 = 0;
const now = () => performance.now() - t0;
const onProgress = (event: ProgressEvent) => {
  if (event.type === 'start') t0 = performance.now();
  else if (event.type === 'check-start') spans.set(event.id, { id: event.id, start: now() });
  else if (event.type === 'check-progress' && event.message.startsWith('alone from here on')) spans.get(event.id)!.alone = now();
  else if (event.type === 'check-progress' && event.message.startsWith('on spare target instance'))
    spans.get(event.id)!.lane = event.message.split(' ')[4];
  else if (event.type === 'check-end' && spans.has(event.result.id))
    Object.assign(spans.get(event.result.id)!, { end: now(), result: event.result.result });
};

const load = loadavg()[0]!.toFixed(1);
const simulator = blackBox ? null : await startSimulator();
try {
  const target: Partial<ConformanceOptions> = simulator
    ? { baseUrl: simulator.url, apiKey: simulator.simulator.defaultApiKey }
    : { targetCommand: `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start --no-control --no-demo-payment` };
  const outcome = await runConformance({
    ...target,
    ...(parallel ? { customerParallel: Number(parallel) } : {}),
    ...(only ? { only: only.split(',') } : {}),
    ...(instances ? { instances: Number(instances) } : {}),
    seed,
    workers,
    formats: ['json'],
    progress: false,
    write: () => undefined,
    reportDir: mkdtempSync(join(tmpdir(), 'stablepay-timeline-')),
    onProgress,
  } as ConformanceOptions);
  const s = (ms: number | undefined) => (ms === undefined ? '–' : (ms / 1000).toFixed(1));
  const rows = [...spans.values()].sort((a, b) => a.start - b.start);
  console.log('| check | start (s) | alone from (s) | end (s) | took (s) | spare | beside it at its start | result |');
  console.log('| --- | --: | --: | --: | --: | --: | --- | --- |');
  for (const span of rows) {
    const beside = rows
      .filter((o) => o !== span && o.start <= span.start && (o.end ?? Number.POSITIVE_INFINITY) > span.start)
      .map((o) => o.id);
    console.log(
      `| ${span.id} | ${s(span.start)} | ${s(span.alone)} | ${s(span.end)} | ${s((span.end ?? span.start) - span.start)} | ${span.lane ?? ''} | ${beside.join(', ')} | ${span.result ?? ''} |`,
    );
  }
  const sum = rows.reduce((total, span) => total + ((span.end ?? span.start) - span.start), 0);
  console.log(
    `\n${blackBox ? `black-box (--instances ${instances ?? 'default'})` : 'control API'}, --workers ${workers}, seed ${seed}: run ${s(outcome.result.summary.durationMs)} s, checks' sum ${s(sum)} s, exit ${outcome.exitCode}; load average ${load} at start, ${loadavg()[0]!.toFixed(1)} at the end.`,
  );
} finally {
  await simulator?.close();
}
