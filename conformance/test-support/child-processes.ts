// Processes this test process started that are still there (the chains' watchdogs, a target's shell): a run that
// says it stopped everything must leave this empty.
import { execFileSync } from 'node:child_process';

export function childProcesses(): string[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/\bps -o\b/.test(l));
  } catch {
    return [];
  }
}
