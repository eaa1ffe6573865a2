// `--target-command`: the implementation as a local process group. Its output goes to a log file in the report
// directory; stop() (also on failure and Ctrl-C) signals the whole group, SIGTERM then SIGKILL.
import type { TargetIdentity } from '../run-metadata.ts';
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { TARGET_DEFAULTS } from '../black-box-options.ts';
import { TargetError } from './target-errors.ts';
import { groupListensOn } from './listening-group.ts';
import { waitUntilReady, type ReadySignal } from './wait-until-ready.ts';

export interface StartCommandTargetParameters {
  command: string;
  env: Record<string, string>;
  baseUrl: string;
  ready: ReadySignal;
  startTimeoutMs: number;
  logPath: string;
}

export interface RunningTarget {
  readonly baseUrl: string;
  readonly logPath: string;
  /** Human-readable: what runs, for the report notes. */
  readonly description: string;
  /** What was started, for the reports' run metadata. */
  readonly identity?: NonNullable<TargetIdentity['started']>;
  /** Resolves once the target is ready; throws a TargetError (after stopping it) when it never gets there. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the command and returns at once, so its stop() can be registered before the (long) wait for readiness. */
export function launchCommandTarget(params: StartCommandTargetParameters): RunningTarget {
  mkdirSync(dirname(params.logPath), { recursive: true });
  const log = openSync(params.logPath, 'w');
  // detached: the shell leads a new process group, so every process the command starts can be signalled at once.
  const child = spawn('/bin/sh', ['-c', params.command], {
    env: { ...process.env, ...params.env },
    stdio: ['ignore', log, log],
    detached: true,
  });
  closeSync(log);
  let exit: { code: number | null; signal: string | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
    child.once('error', (error) => {
      exit = { code: null, signal: error.message };
      resolve();
    });
  });
  const group = child.pid;
  const port = Number(new URL(params.baseUrl).port || 80);
  const signalGroup = (signal: NodeJS.Signals): void => {
    if (!group) return;
    try {
      process.kill(-group, signal);
    } catch {
      // the group is gone
    }
  };
  // A process that exits without stop() (a second Ctrl-C exits at once) still takes the group with it.
  const killOnExit = (): void => signalGroup('SIGKILL');
  process.on('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= stopGroup().finally(() => process.off('exit', killOnExit)));
  const stopGroup = async (): Promise<void> => {
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), TARGET_DEFAULTS.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
    // The shell may be gone while a child it started lingers in the group.
    signalGroup('SIGKILL');
    // SIGKILL is delivered asynchronously: wait (bounded) until no member of the group is left, so "stopped" means
    // gone when the run ends (a member that stays is a zombie its new parent has not reaped yet).
    for (let i = 0; i < 100 && groupAlive(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const groupAlive = (): boolean => {
    if (!group) return false;
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  const ready = async (): Promise<void> => {
    try {
      await waitUntilReady({
        baseUrl: params.baseUrl,
        signal: params.ready,
        timeoutMs: params.startTimeoutMs,
        output: () => readFileSync(params.logPath, 'utf8'),
        exited: () => exit,
        logPath: params.logPath,
        what: 'the target command',
        ...(group ? { ownsListener: () => groupListensOn(group, port) } : {}),
      });
    } catch (error) {
      await stop();
      throw error instanceof TargetError ? error : new TargetError(`the target command could not be started: ${(error as Error).message}`);
    }
  };
  return {
    baseUrl: params.baseUrl,
    logPath: params.logPath,
    description: `command: ${params.command}`,
    identity: { kind: 'command', command: params.command },
    ready,
    stop,
  };
}
