// Waits for a target the suite started: until an HTTP path answers (any status: the server is up) or a log line
// appears, and gives up when the target exits or the time-out passes. Polling backs off from a short pause: the wait is
// for a real process, so it is real time (no virtual clock to move).
import { TargetError } from './target-errors.ts';
import { backOff } from '../back-off.ts';

export type ReadySignal = { kind: 'http'; path: string } | { kind: 'log'; text: string };

export function parseReadySignal(wait: string): ReadySignal {
  if (wait.startsWith('log:')) {
    const text = wait.slice(4);
    if (!text) throw new TargetError('--target-wait log: needs the text to wait for, e.g. log:listening');
    return { kind: 'log', text };
  }
  if (!wait.startsWith('/')) throw new TargetError(`--target-wait takes an HTTP path starting with / or log:<text>, got "${wait}"`);
  return { kind: 'http', path: wait };
}

export interface WaitUntilReadyParameters {
  baseUrl: string;
  signal: ReadySignal;
  timeoutMs: number;
  /** Everything the target printed so far. */
  output: () => string;
  /** Set once the target has exited (then waiting stops). */
  exited: () => { code: number | null; signal: string | null } | undefined;
  /** Where the output is kept, named in the error. */
  logPath: string;
  what: string;
  /**
   * Whether the socket answering on the target's port is the target's own (listening-group.ts). When it is not known
   * to be (another system; a listener outside the command's process group, e.g. a container's port proxy), the target
   * must stay up a short grace after its first answer instead.
   */
  ownsListener?: () => boolean | undefined;
  /** The grace (default READY_GRACE_MS). */
  graceMs?: number;
}

/**
 * Up: any answer below 500 (a 401 without a key is fine, so is a redirect, which is never followed; a 503 while it
 * starts is not yet). The body is not read: a target that streams forever or sends gigabytes cannot hold the wait.
 */
async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000), redirect: 'manual' });
    await res.body?.cancel();
    return res.status < 500;
  } catch {
    return false;
  }
}

/**
 * True when the answer is the target's: the socket listening on its port is its own, or, where that is not known, it
 * has not exited within a short grace after it answered.
 */
async function answeredByTarget(params: WaitUntilReadyParameters): Promise<boolean> {
  if (params.ownsListener?.() === true) return params.exited() === undefined;
  await new Promise((resolve) => setTimeout(resolve, params.graceMs ?? READY_GRACE_MS));
  return params.exited() === undefined;
}

/** How long a target must stay up after its first answer to count as ready, where its listener cannot be checked. */
const READY_GRACE_MS = 300;

export async function waitUntilReady(params: WaitUntilReadyParameters): Promise<void> {
  const deadline = Date.now() + params.timeoutMs;
  const target = params.signal.kind === 'http' ? `${params.baseUrl}${params.signal.path}` : `"${params.signal.text}" in its output`;
  const pause = backOff({ maxMs: 250 });
  for (;;) {
    const exit = params.exited();
    if (exit)
      throw new TargetError(
        `${params.what} exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}) before it answered at ${target}; its output is in ${params.logPath}`,
      );
    const ready = params.signal.kind === 'http' ? await answers(target) : params.output().includes(params.signal.text);
    // The target's own answer: a target that lost its port to another process exits (EADDRINUSE) while that process
    // answers in its place, and the run would go on against a stranger.
    if (ready && (await answeredByTarget(params))) return;
    if (Date.now() > deadline)
      throw new TargetError(
        `${params.what} did not answer at ${target} within ${Math.round(params.timeoutMs / 1000)} s; its output is in ${params.logPath}`,
      );
    await pause();
  }
}
