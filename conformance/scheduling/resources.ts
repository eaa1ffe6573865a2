// What the whole run shares and a check may need alone. Every check holds every shared resource in shared mode (it
// reads the clock, spends the rate-limit window, creates payments on the main merchant); a check that moves, measures or
// repoints one declares it exclusive, and runs with no other check beside it. The runner grants the claims
// (scheduler.ts) and the clients refuse an exclusive act the running check did not declare (http/request-scope.ts), so
// a check written later cannot race by accident.
import { type Exclusive, SHARED_RESOURCES, type SharedResource } from '../http/request-scope.ts';

export { SHARED_RESOURCES, type SharedResource };

/** A check's declaration: `exclusive` what it moves, measures or repoints; `browserSlots` the browser contexts it uses at once. */
export interface ResourceNeeds {
  /**
   * - `clock`: moves the implementation's clock (the control API's virtual clock, or libfaketime, which moves the whole
   *   target and every chain): other checks' payments would expire, their keys lapse, their retries fire.
   * - `rate-limit-window`: lowers the limit (control API, global) or spends the main key's window to reach 429.
   * - `main-webhook-endpoint`: changes the main merchant's one endpoint itself (rotates its secret, sends the test
   *   event, which names no payment to route by). Only without a control API (with one, such a check configures a
   *   merchant of its own): then exclusive, else shared. Receiving deliveries needs no claim: the run's endpoint
   *   routes each to the check whose payment it is about (webhooks/run-endpoint.ts).
   * - `main-merchant-books`: judges or acts on the main merchant's records as a whole: its payment list, totals,
   *   ledger or API keys (what another check adds meanwhile would change the count). Only without a control API, like
   *   the endpoint.
   * - `recorded-traffic`: reads what every other check recorded (cross-cutting checks; set from the tag). Held alone
   *   against every other check, shared with the other readers: a reader sends no request (scheduling/guards.ts), so
   *   readers side by side see the same traffic as one after another.
   */
  exclusive?: SharedResource[];
  /** Browser contexts of the one Chromium this check uses at once (`all`: every --customer-parallel slot). */
  browserSlots?: number | 'all';
  /**
   * A cross-cutting check that also sends requests (it re-reads a payment the traffic names): the other readers would
   * judge its requests or not by chance, so it runs alone, after them. Without it a cross-cutting check sends none.
   */
  sendsRequests?: boolean;
  /**
   * The run's first payment through the hosted page: it starts before every other check of the run (those alone from
   * the start and those on spare instances included), so a page that cannot take money fails here, once, at
   * --workers 1 and n alike, and the customer agent reports the later payments as not attempted because of it.
   */
  browserFirst?: boolean;
  /**
   * Holds a payment PROCESSING by stopping a chain's mining (support/customer-path.ts, holdProcessing). It claims only
   * the `browserSlots` it uses at once: while the chain does not mine, it holds its instance's chains alone in the
   * customer agent (customer/chains-hold.ts: no other check's page of that instance is open or opens, so no payment or
   * wallet funding waits on it), instead of every slot of the run for the whole check.
   */
  pausesMining?: boolean;
}

/** What the runner grants a check for its whole run (cleanups included). */
export interface Claims extends Exclusive {
  /** Held alone; grows by `onFirstAct` when the check's exclusive phase begins. */
  exclusive: Set<SharedResource>;
  /** Browser contexts held (0: the check may not use the browser customer). */
  browserSlots: number;
  /**
   * The check moves time on a test clock of its own (made by the runner before it starts), not on the run's: it needs
   * the clock alone no more. Set when the run has test clocks and the clock is all the check declared alone.
   */
  ownClock?: boolean;
  /** Declared `browserFirst`: the run order puts it before every other check (scheduler.ts, runOrder). */
  browserFirst?: boolean;
}

/**
 * Held alone only from the check's first act on it: the clock, when it is all a check holds alone. Everything a check
 * does before its first clock move (creating, configuring, waiting out a receiver's limit) is what any plain check does,
 * so it runs beside them; its first move waits until it is alone, and from then on it stays alone.
 */
const ON_FIRST_ACT: ReadonlySet<SharedResource> = new Set(['clock']);

/** Exclusive only when the check would use the main merchant's own: that is, without a control API. */
const ONLY_WITHOUT_CONTROL: ReadonlySet<SharedResource> = new Set(['main-webhook-endpoint', 'main-merchant-books']);

export interface RunShape {
  control: boolean;
  /** The control API has test clocks (the run lives on one): a check that only moves time gets one of its own. */
  testClocks?: boolean;
  /** --customer-parallel: the browser contexts the run has. */
  browserCapacity: number;
  /** Spare target instances the run has (black-box lanes, lanes.ts): 0 or absent for none. */
  lanes?: number;
}

/**
 * What a fresh target instance has of its own: its clock (its own libfaketime file), its merchant's books, its one
 * webhook endpoint and its rate-limit window. A check that needs only these alone runs on a spare instance instead.
 */
const LANE_RESOURCES: ReadonlySet<SharedResource> = new Set(['clock', 'main-merchant-books', 'main-webhook-endpoint', 'rate-limit-window']);

export function claimsOf(check: { resources?: ResourceNeeds; tags: readonly string[] }, run: RunShape): Claims {
  const declared = new Set(check.resources?.exclusive ?? []);
  if (check.tags.includes('cross-cutting')) declared.add('recorded-traffic');
  const exclusive = new Set([...declared].filter((resource) => !(run.control && ONLY_WITHOUT_CONTROL.has(resource))));
  const flags = {
    ...(check.resources?.sendsRequests === true ? { sendsRequests: true } : {}),
    ...(check.resources?.browserFirst === true && check.resources.browserSlots ? { browserFirst: true } : {}),
  };
  const capacity = Math.max(1, run.browserCapacity);
  const slotsOf = (wanted: number | 'all') => (wanted === 'all' ? capacity : Math.min(capacity, Math.max(0, wanted)));
  const declaredSlots = check.resources?.browserSlots ?? 0;
  // Without a control API, on a spare instance of its own: it holds nothing alone on the main one (its browser
  // contexts, paying on that instance's chains, count against the run's like any other).
  if ((run.lanes ?? 0) > 0 && !run.control && !flags.sendsRequests && laneWorthy(declared))
    return { exclusive: new Set(), browserSlots: slotsOf(declaredSlots), lane: declared, ...flags };
  const browserSlots = slotsOf(declaredSlots);
  // Anything held alone from the start besides the clock makes the whole check exclusive.
  if (exclusive.size > 0 && [...exclusive].every((resource) => ON_FIRST_ACT.has(resource)))
    return run.control && run.testClocks
      ? { exclusive: new Set(), browserSlots, ownClock: true, ...flags }
      : { exclusive: new Set(), onFirstAct: exclusive, browserSlots, ...flags };
  return { exclusive, browserSlots, ...flags };
}

const laneWorthy = (declared: ReadonlySet<SharedResource>): boolean =>
  declared.size > 0 && [...declared].every((resource) => LANE_RESOURCES.has(resource));

/** True for a check that will hold something alone from its first act on it. */
export const entersExclusive = (claims: Claims): boolean => (claims.onFirstAct?.size ?? 0) > 0;

/**
 * Two checks that may not start beside each other: one holds something alone from the start, or both will hold
 * something alone later (two checks waiting to be alone would wait on each other forever); two readers of the recorded
 * traffic excepted.
 */
export function conflicts(a: Claims, b: Claims): boolean {
  if (readsOnly(a) && readsOnly(b)) return false;
  // A check on a spare instance shares nothing with the main one or another spare (the scheduler counts the spares),
  // but the readers of the recorded traffic judge its requests too, so they wait for it.
  if (a.lane || b.lane) return a.exclusive.has('recorded-traffic') || b.exclusive.has('recorded-traffic');
  return a.exclusive.size > 0 || b.exclusive.size > 0 || (entersExclusive(a) && entersExclusive(b));
}

/**
 * A check that holds only the run's recorded traffic: it reads what the others recorded and sends nothing itself
 * (guards.ts refuses its requests), so such readers run beside each other, after every other check has ended.
 */
export const readsOnly = (claims: Claims): boolean =>
  claims.exclusive.size === 1 && claims.exclusive.has('recorded-traffic') && claims.browserSlots === 0 && !claims.sendsRequests;

/** The declared resources as text (--list, errors). */
export function describeNeeds(needs: ResourceNeeds | undefined): string {
  const parts = [...(needs?.exclusive ?? []).map((r) => `${r} alone`)];
  if (needs?.browserSlots) parts.push(`${needs.browserSlots} browser slot${needs.browserSlots === 1 ? '' : 's'}`);
  if (needs?.pausesMining) parts.push("its instance's chains alone while it pauses mining");
  return parts.join(', ');
}

export function checkResourceNeeds(id: string, needs: ResourceNeeds | undefined): void {
  for (const resource of needs?.exclusive ?? [])
    if (!(SHARED_RESOURCES as readonly string[]).includes(resource)) throw new Error(`check ${id} declares unknown resource ${resource}`);
  const slots = needs?.browserSlots;
  if (slots !== undefined && slots !== 'all' && !(Number.isSafeInteger(slots) && slots >= 1))
    throw new Error(`check ${id}: browserSlots must be a positive integer or 'all'`);
}
