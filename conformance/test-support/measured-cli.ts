// Runs the built `stablepay` CLI as a user does, in a process group of its own, and measures what the robustness
// tests and bench/broken-servers.ts judge: exit code (or the signal that ended it), wall time, peak resident memory
// (VmHWM of /proc/<pid>/status, read every 50 ms while it runs), its output, and whether anything of its process
// group is still there once it has exited.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  wallMs: number;
  /** Peak resident set size of the CLI process, in bytes (0 when /proc could not be read). */
  peakRssBytes: number;
  stdout: string;
  stderr: string;
  /** Members of the CLI's process group still alive after it exited (pids), after a short grace. */
  leftover: number[];
  /** True when the harness had to kill the run at `killAfterMs`. */
  killed: boolean;
}

export interface MeasuredRunOptions {
  args: string[];
  /** Another checkout's bin/stablepay.js (a before/after in one session); default this checkout's. */
  bin?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** The harness kills the whole group after this long (a run that never ends). */
  killAfterMs?: number;
  /** Called once the process has started, with its pid (e.g. to signal it). */
  onStart?: (pid: number) => void;
  /** Called with each chunk of stdout as it comes. */
  onStdout?: (text: string) => void;
}

function peakRss(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Pids whose process group is `group` (read from /proc: a zombie or a re-parented orphan counts too). */
export function processGroupMembers(group: number): number[] {
  try {
    return processTable()
      .filter(([, pgid, state]) => pgid === group && state !== 'Z')
      .map(([pid]) => pid);
  } catch {
    return [];
  }
}

/** Every process below `root` (children, theirs, ...) alive now, whatever process group they lead. */
export function descendants(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, , state, ppid] of table) {
      if (ppid !== parent || state === 'Z') continue;
      found.push(pid);
      queue.push(pid);
    }
  }
  return found;
}

/** Alive and not a zombie. */
export function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** [pid, process group, state, parent pid] of every process. */
function processTable(): [number, number, string, number][] {
  const rows: [number, number, string, number][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rows.push([Number(entry), Number(fields[2]), fields[0]!, Number(fields[1])]);
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

export function runMeasuredCli(options: MeasuredRunOptions): Promise<MeasuredRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [options.bin ?? BIN, ...options.args], {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_BASE_URL: '', STABLEPAY_CONTROL_TOKEN: '', ...options.env },
  });
  const pid = child.pid!;
  options.onStart?.(pid);
  let stdout = '';
  let stderr = '';
  let peak = 0;
  let killed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stdout += text;
    options.onStdout?.(text);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const sampler = setInterval(() => (peak = Math.max(peak, peakRss(pid))), 50);
  const killer = setTimeout(() => {
    killed = true;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, options.killAfterMs ?? 300_000);
  return new Promise((resolve) => {
    child.on('exit', () => {
      // The last reading before the exit is the closest to the peak: VmHWM only grows.
      clearInterval(sampler);
    });
    child.on('close', async (code, signal) => {
      const wallMs = performance.now() - started;
      clearTimeout(killer);
      // A member that was just signalled may need a moment to go; anything still there after that was left behind.
      let leftover = processGroupMembers(pid);
      for (let i = 0; i < 20 && leftover.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        leftover = processGroupMembers(pid);
      }
      for (const member of leftover) {
        try {
          process.kill(member, 'SIGKILL');
        } catch {
          // gone
        }
      }
      resolve({ code, signal, wallMs, peakRssBytes: peak, stdout, stderr, leftover, killed });
    });
  });
}
