// Which check a request belongs to, the signal that aborts it, and what it is waiting on, carried by Node's
// AsyncLocalStorage through every await of the check. A check the runner gives up on (its time limit, an interrupted
// run) keeps its scope in whatever it left running, so its late requests are refused at once instead of running
// into the next check; and the runner can say which request the running check waits on.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface PendingRequest {
  method: string;
  url: string;
  startedAt: number;
  deadlineMs: number;
}

export class RequestScope {
  readonly pending = new Set<PendingRequest>();
  constructor(
    readonly checkId: string,
    readonly signal: AbortSignal,
  ) {}

  /** The request this scope has waited on longest, if any. */
  oldestPending(): PendingRequest | undefined {
    let oldest: PendingRequest | undefined;
    for (const request of this.pending) if (!oldest || request.startedAt < oldest.startedAt) oldest = request;
    return oldest;
  }
}

const storage = new AsyncLocalStorage<RequestScope>();

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

export function runInScope<T>(scope: RequestScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** Why a scope's signal was aborted: the run stopped (interrupt, --max-run-time) or the check was given up on. */
export class ScopeAborted extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'ScopeAborted';
  }
}
