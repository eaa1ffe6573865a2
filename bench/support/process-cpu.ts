// CPU time a process has used so far (user + system, Linux /proc), for the benchmarks' "server CPU per request": on a
// shared machine req/s moves with everyone else's load, the CPU a server spends on each request much less so.
import { execFileSync } from 'node:child_process';
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
