// `npx stablepay start` and `npm start` run us through `sh -c`, and npm passes SIGINT and SIGTERM on to that shell
// only, never to us. SIGTERM kills the shell: we see our parent change. SIGINT does not: a non-interactive shell
// waiting for its command holds a SIGINT until the command exits (dash, Debian's sh, does), so the simulator and
// its chains would run on, with npm waiting for them. What we can see is the shell waking up: while it waits for
// us it sleeps in wait(), and only a signal it catches wakes it (on Linux, its context-switch count in /proc moves).
// One wake-up that is not explained by our own stop and resume (Ctrl-Z then fg wakes it too) means "stop".
import { readFileSync } from 'node:fs';

export interface WatchNpmWrapperOptions {
  onStopRequest: (reason: string) => void;
  pollMs?: number;
}

/** The voluntary context switches of a process, or undefined where /proc cannot tell (not Linux, gone). */
function wakeCount(pid: number): number | undefined {
  try {
    const match = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a `sh -c <command>` wrapper (npm's script shell), the only parent whose wake-ups we can read. */
function isWrapperShell(pid: number): boolean {
  try {
    const [shell, flag] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /(^|\/)(sh|dash|bash|ash)$/.test(shell ?? '') && flag === '-c';
  } catch {
    return false;
  }
}

export function watchNpmWrapper(options: WatchNpmWrapperOptions): void {
  const pollMs = options.pollMs ?? 250;
  const parent = process.ppid;
  const readWakes = isWrapperShell(parent) ? () => wakeCount(parent) : () => undefined;
  let wakes = readWakes();
  let unexplainedWake = false;
  // A stop and resume of our process group (Ctrl-Z, fg) wakes the shell too (SIGCHLD): not a stop request.
  process.on('SIGCONT', () => {
    wakes = readWakes();
    unexplainedWake = false;
  });
  setInterval(() => {
    if (process.ppid !== parent) return options.onStopRequest(`the npm process that started this one (pid ${parent}) has exited`);
    const current = readWakes();
    if (current === undefined || wakes === undefined || current === wakes) return;
    // Acted on one poll later, so a SIGCONT handled in between can still explain it.
    if (unexplainedWake) return options.onStopRequest('npm passed on a stop signal');
    unexplainedWake = true;
  }, pollMs).unref();
}
