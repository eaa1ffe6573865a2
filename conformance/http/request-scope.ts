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

/** What every check shares and some hold alone (scheduling/resources.ts says what each means). */
export const SHARED_RESOURCES = ['clock', 'rate-limit-window', 'main-webhook-endpoint', 'main-merchant-books', 'recorded-traffic'] as const;
export type SharedResource = (typeof SHARED_RESOURCES)[number];

/** The resources a running check was granted alone, and its browser contexts. */
export interface Exclusive {
  exclusive: ReadonlySet<SharedResource>;
  /**
   * Declared, but held alone only from the check's first act on it (its exclusive phase): until then it runs beside
   * plain checks. `enterExclusive` waits until every other running check has ended, then holds them alone.
   */
  onFirstAct?: ReadonlySet<SharedResource>;
  enterExclusive?: () => Promise<void>;
  browserSlots: number;
  /**
   * Held alone on a spare target instance of its own (black-box lanes, scheduling/lanes.ts): the check runs there,
   * so what it declared (the clock, the main merchant's books and endpoint, the rate-limit window) is its alone.
   */
  lane?: ReadonlySet<SharedResource>;
  /** The test clock made for this check alone (control API): moving it needs no claim. */
  ownClockId?: string;
  /** A reader of the recorded traffic that also sends requests, so runs alone (scheduling/resources.ts). */
  sendsRequests?: boolean;
}

export class RequestScope {
  readonly pending = new Set<PendingRequest>();
  constructor(
    readonly checkId: string,
    readonly signal: AbortSignal,
    /** A check's grant (absent outside checks: setup, the premise probes of setup, unit tests). */
    readonly claims?: Exclusive,
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

/**
 * Runs `fn` for the running check but with no claims: an act of the run itself that a check happens to trigger first
 * (pointing the run's shared webhook endpoint once), which no check holds alone.
 */
export function withoutClaims<T>(fn: () => Promise<T>): Promise<T> {
  const scope = currentScope();
  return scope ? storage.run(new RequestScope(scope.checkId, scope.signal), fn) : fn();
}

/** Why a scope's signal was aborted: the run stopped (interrupt, --max-run-time) or the check was given up on. */
export class ScopeAborted extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'ScopeAborted';
  }
}

/** A check did something that needs a resource alone without declaring it: a bug of the check, its result is `error`. */
export class UndeclaredResource extends Error {
  constructor(checkId: string, did: string, declaration: string) {
    super(`check ${checkId} ${did} without declaring it: add ${declaration} to its definition (conformance/scheduling/resources.ts)`);
    this.name = 'UndeclaredResource';
  }
}

/**
 * Lets `did` happen once the running check holds `resource` alone: at once when it does, after its exclusive phase
 * began when it declared it for its first act, refused when it did not declare it (outside a check anything goes).
 */
export async function requireExclusive(resource: SharedResource, did: string): Promise<void> {
  const scope = currentScope();
  const claims = scope?.claims;
  if (!claims || holdsAlone(resource)) return;
  if (claims.onFirstAct?.has(resource) && claims.enterExclusive) return claims.enterExclusive();
  throw new UndeclaredResource(scope.checkId, did, `resources: { exclusive: ['${resource}'] }`);
}

/** True when the running check holds `resource` alone now, on the main instance or on a spare of its own (outside a check: as if it did). */
export function holdsAlone(resource: SharedResource): boolean {
  const claims = currentScope()?.claims;
  return !claims || claims.exclusive.has(resource) || claims.lane?.has(resource) === true;
}

/** Refuses the browser customer to a check that holds no browser slot. */
export function requireBrowserSlot(): void {
  const scope = currentScope();
  if (!scope?.claims || scope.claims.browserSlots > 0) return;
  throw new UndeclaredResource(scope.checkId, 'used the browser customer', 'resources: { browserSlots: <n> }');
}
