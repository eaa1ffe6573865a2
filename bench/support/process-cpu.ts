// CPU time a process has used so far (user + system, Linux /proc), for the benchmarks' "server CPU per request": on a
// shared machine req/s moves with everyone else's load, the CPU a server spends on each request much less so. And what
// the host takes from this machine: the CPU it steals, and how fast a fixed task runs now (hostProbeMs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** /proc's clock ticks per second (USER_HZ), asked once. */
const clockTicks = (): number => (ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

/** Microseconds of CPU used by `pid`, or undefined where /proc is not available. */
export function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may contain spaces, hence the split on ") "): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks();
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds of CPU the host has taken from this machine so far ("steal", the 8th figure of /proc/stat's cpu line:
 * a virtual machine's vCPU waiting for a physical one), or undefined where /proc is not available. On a shared host a
 * CPU-bound run slows by what was stolen while it ran: the benches print it beside their times.
 */
export function stolenCpuMs(): number | undefined {
  try {
    const figures = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const steal = figures[7];
    return steal === undefined || Number.isNaN(steal) ? undefined : (steal * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** Iterations of the host probe: about 0.25 s on a quiet host of this project's CI machine. */
const PROBE_ROUNDS = 200_000;

/**
 * Milliseconds a fixed single-threaded CPU task takes now (a chain of SHA-256 digests): the host's speed at this
 * moment. Steal does not show every slowdown of a shared host (on 2026-12-07 the same task took 356–724 ms within an
 * hour while under 0.3 s per run showed as stolen), and a run bound by the CPU slows with it where a run that waits
 * does not: the benches print it beside the runs they compare.
 */
export function hostProbeMs(): number {
  const started = performance.now();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < PROBE_ROUNDS; i++) digest = createHash('sha256').update(digest).digest();
  return performance.now() - started;
}
