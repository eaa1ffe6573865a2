// Runs checks side by side where their claims allow (resources.ts): at most `workers` at once, a check that holds
// anything alone with no other beside it, browser slots counted. A clock mover runs beside plain checks until its first
// move, which waits until the checks running beside it have ended; nothing starts while it is alone. The order is fixed
// before the run and is the same for any number of workers (runOrder): those that need something alone from the start
// (the exclusive phase), then the plain checks and the clock movers in list order (those that wait out real time
// first), then the cross-cutting ones that read the whole run. A check never overtakes an earlier one it conflicts with, so two checks that cannot share run in
// the same order at --workers 1 and at --workers n; a check holding browser slots never overtakes an earlier one
// waiting for slots (one waiting for a spare instance, every spare busy, it may).
import { type Claims, conflicts } from './resources.ts';

export interface SchedulerHooks {
  /** False once nothing more may start (the run is stopping, --max-failures was reached). */
  mayStart(): boolean;
  /** Runs the check at `index` to its end (cleanups included); never rejects. */
  run(index: number): Promise<void>;
  /** The check at `index` is alone from now on (its exclusive phase began). */
  alone?(index: number): void;
}

/**
 * Indices in the order the run takes them: first the check declared `browserFirst`, then the checks that need something alone from the start (each alone, at
 * a moment when nothing else runs, so none waits for the others to drain), then the plain ones, then the cross-cutting
 * checks. Within the plain ones those that wait out real time start first (`rank` lower first, list order within a
 * rank: a receiver's 10 s limit before a clock of its own before the rest), so their waits overlap the rest of the run
 * instead of ending it.
 */
export function runOrder(claims: Claims[], rank: (index: number) => number = () => 0): number[] {
  const indices = claims.map((_, index) => index);
  // Before everything: the first payment through the page (it holds nothing alone, so it only delays the first check
  // alone from the start by its own length, and no other browser check may overtake it).
  const first = indices.filter((index) => claims[index]!.browserFirst === true);
  const phase = (c: Claims) => (c.browserFirst ? -1 : c.exclusive.has('recorded-traffic') ? 2 : c.exclusive.size > 0 ? 1 : 0);
  const inPhase = (p: number) => indices.filter((index) => phase(claims[index]!) === p);
  const plain = inPhase(0);
  const ranks = [...new Set(plain.map(rank))].sort((a, b) => a - b);
  return [...first, ...inPhase(1), ...ranks.flatMap((r) => plain.filter((index) => rank(index) === r)), ...inPhase(2)];
}

/**
 * Starts the checks of `order` as their claims and the workers allow; resolves when every started one has ended.
 * Returns the indices never started (in order), because `mayStart` said no.
 */
export async function runScheduled(
  claims: Claims[],
  order: number[],
  options: { workers: number; browserCapacity: number; laneCapacity?: number },
  hooks: SchedulerHooks,
): Promise<number[]> {
  const workers = Math.max(1, options.workers);
  const capacity = Math.max(1, options.browserCapacity);
  const pending = [...order];
  const running = new Map<number, Promise<void>>();
  let slotsUsed = 0;
  const laneCapacity = options.laneCapacity ?? 0;
  let lanesUsed = 0;
  const onLane = (claim: Claims) => claim.lane !== undefined;
  /** The check in (or waiting for) its exclusive phase: nothing starts meanwhile. */
  let alone: { index: number; granted: () => void } | undefined;
  // Alone on the main instance: checks on spare instances beside it do not count.
  const grantIfAlone = () => {
    if (alone && running.has(alone.index) && [...running.keys()].every((index) => index === alone!.index || onLane(claims[index]!)))
      alone.granted();
  };
  // A check waiting for a spare instance may be overtaken by one that finds a spare free: spares are alike. A browser
  // check waiting for a spare (every spare busy) does not hold back the browser checks of the main instance: it waits
  // for the spare, not for slots, and once a spare is free it waits for slots like any other, holding back the later
  // ones, so it cannot be starved.
  const waitsForSpare = (claim: Claims) => onLane(claim) && lanesUsed >= laneCapacity;
  const mayOvertake = (earlier: Claims, later: Claims) =>
    !conflicts(earlier, later) && !(earlier.browserSlots > 0 && later.browserSlots > 0 && !waitsForSpare(earlier));
  const startable = (position: number): boolean => {
    const wanted = claims[pending[position]!]!;
    if (alone && !onLane(wanted)) return false;
    if (slotsUsed + wanted.browserSlots > capacity) return false;
    if (onLane(wanted) && lanesUsed >= laneCapacity) return false;
    if ([...running.keys()].some((index) => conflicts(claims[index]!, wanted))) return false;
    return pending.slice(0, position).every((index) => mayOvertake(claims[index]!, wanted));
  };
  while (pending.length > 0 && hooks.mayStart()) {
    for (let position = 0; position < pending.length && running.size < workers; position++) {
      if (!startable(position)) continue;
      const [index] = pending.splice(position--, 1) as [number];
      const claim = claims[index]!;
      const slots = claim.browserSlots;
      slotsUsed += slots;
      const lanes = onLane(claim) ? 1 : 0;
      lanesUsed += lanes;
      if (claim.onFirstAct?.size) {
        let entered: Promise<void> | undefined;
        claim.enterExclusive = () =>
          (entered ??= new Promise<void>((resolve) => {
            let done = false;
            alone = {
              index,
              granted: () => {
                if (done) return;
                done = true;
                for (const resource of claim.onFirstAct ?? []) claim.exclusive.add(resource);
                hooks.alone?.(index);
                resolve();
              },
            };
            grantIfAlone();
          }));
      }
      // In the running set before its body runs: a check may ask to be alone before its first await.
      let ended!: () => void;
      running.set(index, new Promise<void>((resolve) => (ended = resolve)));
      void hooks.run(index).finally(() => {
        running.delete(index);
        slotsUsed -= slots;
        lanesUsed -= lanes;
        if (alone?.index === index) alone = undefined;
        grantIfAlone();
        ended();
      });
    }
    // Nothing running and nothing startable cannot happen (the first pending check always fits an idle run).
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  await Promise.all(running.values());
  return pending;
}
