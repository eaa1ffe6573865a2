// Stopping a run from outside: a signal the caller forwards (the CLI's SIGINT/SIGTERM) or the run's own deadline
// (--max-run-time). Both abort one AbortSignal whose reason is a RunStop; the runner starts no further check, the
// running check's requests are aborted (RunStop is a ScopeAborted), and the reports say what stopped the run.
import { ScopeAborted } from './http/request-scope.ts';
import { formatSeconds } from './units.ts';
import type { RunInterruption } from './types.ts';

export class RunStop extends ScopeAborted {
  constructor(
    readonly by: RunInterruption['by'],
    message: string,
  ) {
    super(message);
    this.name = 'RunStop';
  }
}

/** What a caller hands to runConformance to stop it: abort with `new RunStop('SIGINT', ...)`. */
export function stopBySignal(signal: 'SIGINT' | 'SIGTERM'): RunStop {
  return new RunStop(signal, `the run was interrupted by ${signal}`);
}

export interface RunStopper {
  signal: AbortSignal;
  /** The reason once stopped. */
  readonly stopped: RunStop | undefined;
  dispose(): void;
}

/** One signal for the whole run: the caller's (if any) or the deadline, whichever comes first. */
export function runStopper(external: AbortSignal | undefined, maxRunTimeMs: number | null): RunStopper {
  const controller = new AbortController();
  const fromCaller = (): void => {
    const reason = external?.reason;
    controller.abort(reason instanceof RunStop ? reason : new RunStop('SIGINT', 'the run was stopped by its caller'));
  };
  if (external?.aborted) fromCaller();
  else external?.addEventListener('abort', fromCaller, { once: true });
  const timer =
    maxRunTimeMs === null
      ? undefined
      : setTimeout(
          () =>
            controller.abort(new RunStop('max-run-time', `the run reached its time limit (--max-run-time ${formatSeconds(maxRunTimeMs)})`)),
          maxRunTimeMs,
        );
  timer?.unref();
  return {
    signal: controller.signal,
    get stopped() {
      return controller.signal.aborted ? (controller.signal.reason as RunStop) : undefined;
    },
    dispose() {
      clearTimeout(timer);
      external?.removeEventListener('abort', fromCaller);
    },
  };
}

/**
 * A start-up step the run may stop in the middle of: rejects with the stop's reason as soon as `signal` aborts. A step
 * that completes after that is handed to `stopLate` (e.g. chains that came up after all), so nothing is left running.
 */
export function untilStopped<T>(signal: AbortSignal | undefined, step: Promise<T>, stopLate?: (value: T) => unknown): Promise<T> {
  if (!signal) return step;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      if (settled) return;
      settled = true;
      reject(signal.reason);
      step.then(
        (value) => stopLate?.(value),
        () => undefined,
      );
    };
    const done = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    step.then(
      (value) => done(() => resolve(value)),
      (error) => done(() => reject(error)),
    );
  });
}
