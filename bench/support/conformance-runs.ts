// One conformance run through the built CLI, as a user starts it, against the simulator: black-box (the suite starts
// `stablepay start --no-control` itself, moves its clock with libfaketime, pays through its page in Chromium) or with
// the control API (against `stablepay start` in a process of its own). Shared by bench/conformance-workers.ts (wall
// times side by side) and bench/repeat-runs.ts (verdicts over repeated runs).
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runMeasuredCli } from '@stablepay/conformance/test-support/measured-cli';
import type { RunResult } from '@stablepay/conformance';
import { spawnUntil } from './child-process.ts';
import { hostProbeMs, stolenCpuMs } from './process-cpu.ts';
import { CLI, ROOT } from './servers.ts';

export type RunKind = 'black-box' | 'control';

export interface MeasuredConformanceRun {
  kind: RunKind;
  workers: number;
  /** --instances of a black-box run (absent: the suite's default). */
  instances?: number;
  wallMs: number;
  runMs: number;
  /** The sum of the checks' own times: what a run of one check at a time cannot beat. */
  checksMs: number;
  exitCode: number | null;
  result: RunResult;
  /** CPU the host took from this machine while the CLI ran (steal, /proc/stat), in ms; undefined where not known. */
  stolenMs?: number;
  /** hostProbeMs() right before the CLI started: the host's speed then (lower is faster). */
  probeMs: number;
}

const KEY = 'pk_conformanceWorkersBench0000000000000000000000001';

/** Runs the suite once; `keepAs` (a file path) keeps its JSON report. */
export async function runConformanceOnce(
  kind: RunKind,
  options: {
    workers: number;
    seed: number;
    keepAs?: string;
    instances?: number;
    /** Black-box: `stablepay start` flags after `--no-demo-payment` (a database, replicas). */
    targetFlags?: string[];
    /** Black-box: the target keeps its control API (the suite then uses it); default `--no-control`. */
    targetControl?: boolean;
  },
): Promise<MeasuredConformanceRun> {
  const reportDir = await mkdtemp(join(tmpdir(), `cf-runs-${kind}-`));
  const common = ['--seed', String(options.seed), '--workers', String(options.workers), '--format', 'json', '--report-dir', reportDir];
  let stopTarget = async () => undefined as void;
  try {
    let args: string[];
    if (kind === 'black-box') {
      const flags = (options.targetFlags ?? []).map((flag) => ` ${JSON.stringify(flag)}`).join('');
      const target = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start${options.targetControl ? '' : ' --no-control'} --no-demo-payment${flags}`;
      args = [
        'conformance',
        '--target-command',
        target,
        ...common,
        ...(options.instances ? ['--instances', String(options.instances)] : []),
      ];
    } else {
      const started = await spawnUntil(
        process.execPath,
        [CLI, 'start', '--port', '0', '--api-key', KEY, '--no-demo-payment'],
        /Base URL\s+(http:\/\/\S+)/,
        { cwd: ROOT },
      );
      stopTarget = started.stop;
      args = ['conformance', '--base-url', started.match[1]!, '--api-key', KEY, ...common];
    }
    const probeMs = hostProbeMs();
    const stolenBefore = stolenCpuMs();
    const run = await runMeasuredCli({ args, cwd: ROOT, killAfterMs: 900_000 });
    const stolenAfter = stolenCpuMs();
    const report = await readFile(join(reportDir, 'conformance.json'), 'utf8');
    if (options.keepAs) {
      await mkdir(dirname(options.keepAs), { recursive: true });
      await writeFile(options.keepAs, report);
      // The targets' own logs (black-box: the suite started them; target-2.log and on are the spare instances, where the
      // checks that move the clock run), beside the report: what a target said went wrong.
      for (const log of (await readdir(reportDir)).filter((name) => /^target(-\d+)?\.log$/.test(name)))
        await copyFile(join(reportDir, log), `${options.keepAs.replace(/\.json$/, '')}.${log}`).catch(() => undefined);
    }
    const result = JSON.parse(report) as RunResult;
    return {
      kind,
      workers: options.workers,
      ...(options.instances ? { instances: options.instances } : {}),
      wallMs: run.wallMs,
      runMs: result.summary.durationMs,
      checksMs: result.checks.reduce((sum, check) => sum + check.durationMs, 0),
      exitCode: run.code,
      result,
      probeMs,
      ...(stolenBefore !== undefined && stolenAfter !== undefined ? { stolenMs: stolenAfter - stolenBefore } : {}),
    };
  } finally {
    await stopTarget();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** Each check's result and findings (severity, requirement, title): what must not depend on the worker count or the round. */
export function verdicts(result: RunResult): Map<string, string> {
  return new Map(
    result.checks.map((check) => [
      check.id,
      `${check.result} ${check.failures
        .map((f) => `${f.severity}[${f.requirement}] ${f.title}`)
        .sort()
        .join('; ')}`,
    ]),
  );
}

/** The checks whose verdict differs between two runs, as `id: before -> after`. */
export function differences(reference: RunResult, other: RunResult): string[] {
  const a = verdicts(reference);
  const b = verdicts(other);
  return [...a.keys()].filter((id) => a.get(id) !== b.get(id)).map((id) => `${id}: ${a.get(id)} -> ${b.get(id) ?? 'absent'}`);
}
