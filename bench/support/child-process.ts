// Child processes for the benchmarks: each in its own process group, so stopping one also stops whatever it
// started (npm's shell, the simulator's Anvil chains), and waited on by a line it prints, with a time-out that
// says what it waited for.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Started {
  child: ChildProcess;
  /** The match of the awaited line. */
  match: RegExpExecArray;
  /** Milliseconds from spawn to that line. */
  elapsedMs: number;
  output(): string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Spawns `command` and resolves once its output (stdout or stderr) matches `ready`. */
export async function spawnUntil(command: string, args: string[], ready: RegExp, options: SpawnOptions = {}): Promise<Started> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const t0 = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // Output is always drained (a server that logs every request would otherwise block on a full pipe), and
  // only a tail is kept for error messages.
  let tail = '';
  let scanning: string | null = '';
  const stop = (): Promise<void> => stopGroup(child);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no line matching ${ready} within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string): void => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${command} ${args.join(' ')}: ${why}\n${tail}`)));
    };
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      tail = (tail + text).slice(-4_000);
      if (scanning === null) return;
      scanning = (scanning + text).slice(-64_000);
      const found = ready.exec(scanning);
      if (found) {
        scanning = null;
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => {
      if (scanning !== null) fail(`exited (code ${code}, signal ${signal}) before it was ready`);
    });
  });
  return { child, match, elapsedMs: performance.now() - t0, output: () => tail, stop };
}

/** Milliseconds from spawn to exit; rejects on a non-zero exit. */
export async function timeToExit(command: string, args: string[], options: SpawnOptions = {}): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  const elapsed = performance.now() - t0;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}\n${tail}`);
  return elapsed;
}

/** SIGTERM to the whole group, SIGKILL after 5 s; resolves once the leader is gone. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  // Members that outlive the leader (e.g. npm's child) go too.
  signalGroup(pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}
