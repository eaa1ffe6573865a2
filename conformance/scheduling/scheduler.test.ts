import { describe, expect, it } from 'vitest';
import { claimsOf, type Claims, type ResourceNeeds } from './resources.ts';
import { runOrder, runScheduled } from './scheduler.ts';

const claim = (resources?: ResourceNeeds, tags: string[] = [], control = true): Claims =>
  claimsOf({ ...(resources ? { resources } : {}), tags }, { control, browserCapacity: 2 });

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Runs the claims with checks that log their start and end and take `ms`; `body` may act during the check. */
async function simulate(
  claims: Claims[],
  workers: number,
  body: (index: number, log: string[]) => Promise<void> = async () => {
    await tick();
  },
  laneCapacity = 0,
) {
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const notStarted = await runScheduled(
    claims,
    runOrder(claims),
    { workers, browserCapacity: 2, laneCapacity },
    {
      mayStart: () => true,
      run: async (index) => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${index}`);
        await body(index, log);
        log.push(`end ${index}`);
        running--;
      },
      alone: (index) => void log.push(`alone ${index}`),
    },
  );
  return { log, most, notStarted };
}

describe('the scheduler', () => {
  it('runs plain checks side by side up to the worker count, one at a time with one worker', async () => {
    const plain = Array.from({ length: 6 }, () => claim());
    expect((await simulate(plain, 3)).most).toBe(3);
    const one = await simulate(plain, 1);
    expect(one.most).toBe(1);
    expect(one.log.filter((l) => l.startsWith('start'))).toEqual([0, 1, 2, 3, 4, 5].map((i) => `start ${i}`));
  });

  it('puts the checks that need something alone from the start before the plain ones, each alone; cross-cutting last', async () => {
    const claims = [
      claim({ exclusive: ['rate-limit-window'] }),
      claim(),
      claim({}, ['cross-cutting']),
      claim(),
      claim({ exclusive: ['main-merchant-books'] }, [], false),
    ];
    expect(runOrder(claims)).toEqual([0, 4, 1, 3, 2]);
    const { log } = await simulate(claims, 4);
    // 0 alone; then 4 alone; then 1 and 3 side by side; then the cross-cutting check.
    expect(log).toEqual(['start 0', 'end 0', 'start 4', 'end 4', 'start 1', 'start 3', 'end 1', 'end 3', 'start 2', 'end 2']);
  });

  it('the main endpoint and books are held alone only without a control API', () => {
    expect(claim({ exclusive: ['main-webhook-endpoint'] }, [], true).exclusive.size).toBe(0);
    expect([...claim({ exclusive: ['main-webhook-endpoint'] }, [], false).exclusive]).toEqual(['main-webhook-endpoint']);
  });

  it('a clock mover runs beside plain checks until its first move, which waits for them; nothing starts while it is alone', async () => {
    const claims = [claim({ exclusive: ['clock'] }), claim(), claim(), claim()];
    expect(claims[0]!.onFirstAct?.has('clock')).toBe(true);
    const { log } = await simulate(claims, 2, async (index, log) => {
      if (index === 0) {
        await tick();
        log.push('moving 0');
        await claims[0]!.enterExclusive!();
        log.push('moved 0');
        await tick();
      } else await new Promise((resolve) => setTimeout(resolve, 20));
    });
    const at = (line: string) => log.indexOf(line);
    // The mover started with a plain check beside it and moved only once that one had ended.
    expect(at('start 1')).toBeLessThan(at('moving 0'));
    expect(at('end 1')).toBeLessThan(at('alone 0'));
    expect(at('alone 0')).toBeLessThan(at('moved 0'));
    // Nothing started between its wish to move and its end.
    const between = log.slice(at('moving 0'), at('end 0')).filter((l) => l.startsWith('start'));
    expect(between).toEqual([]);
    expect(log.filter((l) => l.startsWith('end'))).toHaveLength(4);
  });

  it('never runs two clock movers side by side (each would wait for the other)', async () => {
    const claims = [claim({ exclusive: ['clock'] }), claim({ exclusive: ['clock'] })];
    const { most } = await simulate(claims, 4, async (index) => {
      await claims[index]!.enterExclusive!();
      await tick();
    });
    expect(most).toBe(1);
  });

  it('counts browser slots: two one-slot checks side by side, an all-slots check alone among browser users, in order', async () => {
    const claims = [claim({ browserSlots: 1 }), claim({ browserSlots: 'all' }), claim({ browserSlots: 1 }), claim()];
    const { log } = await simulate(claims, 4);
    // 0 and the plain 3 start; 1 needs both slots and waits for 0; 2 may not overtake 1.
    expect(log.slice(0, 2)).toEqual(['start 0', 'start 3']);
    expect(log.indexOf('start 1')).toBeGreaterThan(log.indexOf('end 0'));
    expect(log.indexOf('start 2')).toBeGreaterThan(log.indexOf('end 1'));
  });

  it('with test clocks (control API), a check that only moves time runs on its own clock beside any other', async () => {
    const withClocks = (resources: ResourceNeeds) =>
      claimsOf({ resources, tags: [] }, { control: true, testClocks: true, browserCapacity: 2 });
    const movers = [withClocks({ exclusive: ['clock'] }), withClocks({ exclusive: ['clock'] }), claim()];
    expect(movers[0]).toMatchObject({ ownClock: true, browserSlots: 0 });
    expect(movers[0]!.exclusive.size).toBe(0);
    expect(movers[0]!.onFirstAct).toBeUndefined();
    expect((await simulate(movers, 3)).most).toBe(3);
    // The clock with something else alone, or no test clocks, or no control API: as before.
    expect(withClocks({ exclusive: ['clock', 'rate-limit-window'] }).exclusive.has('clock')).toBe(true);
    expect(claim({ exclusive: ['clock'] }).ownClock).toBeUndefined();
    expect(
      claimsOf({ resources: { exclusive: ['clock'] }, tags: [] }, { control: false, testClocks: true, browserCapacity: 2 }).ownClock,
    ).toBeUndefined();
  });

  it('runs the readers of the recorded traffic beside each other, and only after every other check', async () => {
    const claims = [claim({}, ['cross-cutting']), claim(), claim({}, ['cross-cutting']), claim({ exclusive: ['rate-limit-window'] })];
    const { log, most } = await simulate(claims, 4, async (index) => {
      await new Promise((resolve) => setTimeout(resolve, index === 1 ? 30 : 5));
    });
    expect(most).toBe(2);
    expect(log.slice(-4).sort()).toEqual(['end 0', 'end 2', 'start 0', 'start 2']);
    expect(log.indexOf('start 0')).toBeGreaterThan(log.indexOf('end 1'));
  });

  it('runs a reader that sends requests alone, after the readers listed before it', async () => {
    const claims = [claim({}, ['cross-cutting']), claim({}, ['cross-cutting']), claim({ sendsRequests: true }, ['cross-cutting'])];
    const { log } = await simulate(claims, 4);
    expect(log.slice(-2)).toEqual(['start 2', 'end 2']);
    expect(log.slice(0, 2).sort()).toEqual(['start 0', 'start 1']);
  });

  it('starts the check declared browserFirst before every other, alone-from-the-start and browser checks included', async () => {
    const claims = [
      claim({ browserSlots: 1 }),
      claim({ exclusive: ['rate-limit-window'] }),
      claim({ browserSlots: 'all', browserFirst: true }),
      claim(),
    ];
    expect(runOrder(claims, (index) => (index === 0 ? 0 : 1))).toEqual([2, 1, 0, 3]);
    const { log } = await simulate(claims, 4);
    expect(log.slice(0, 2)).toEqual(['start 2', 'end 2']);
    // Only a check that pays through the page is put first.
    expect(claim({ browserFirst: true }).browserFirst).toBeUndefined();
  });

  it('starts the checks that wait out real time first, whatever their place in the list', () => {
    const claims = [claim(), claim(), claim({ exclusive: ['rate-limit-window'] }), claim()];
    expect(runOrder(claims, (index) => (index === 3 ? 0 : index === 1 ? 1 : 2))).toEqual([2, 3, 1, 0]);
  });

  describe('with spare target instances (black-box lanes)', () => {
    const laned = (resources: ResourceNeeds, tags: string[] = [], lanes = 2) =>
      claimsOf({ resources, tags }, { control: false, browserCapacity: 2, lanes });

    it('puts a check needing only the clock, the books, the endpoint or the rate-limit window on a lane, holding nothing alone', () => {
      for (const exclusive of [['clock'], ['main-merchant-books'], ['main-webhook-endpoint'], ['clock', 'rate-limit-window']] as const)
        expect(laned({ exclusive: [...exclusive] })).toMatchObject({ exclusive: new Set(), lane: new Set(exclusive) });
      // Its browser contexts (paying on the spare's chains) count as anywhere; a reader reads the whole run; no spares; a control API.
      expect(laned({ exclusive: ['clock'], browserSlots: 1 })).toMatchObject({ browserSlots: 1, lane: new Set(['clock']) });
      expect(laned({}, ['cross-cutting']).lane).toBeUndefined();
      expect(laned({ exclusive: ['clock'] }, [], 0).lane).toBeUndefined();
      expect(laned({ exclusive: ['clock'] }, [], 0).onFirstAct?.has('clock')).toBe(true);
      expect(
        claimsOf({ resources: { exclusive: ['clock'] }, tags: [] }, { control: true, browserCapacity: 2, lanes: 2 }).lane,
      ).toBeUndefined();
    });

    it('gives a check that pauses mining only the slots it declared, on the main instance and on a spare', () => {
      // The chains it stops are held alone in the customer agent while they do not mine (customer/chains-hold.ts).
      const pauses = { exclusive: ['clock'], browserSlots: 1, pausesMining: true } satisfies ResourceNeeds;
      expect(laned(pauses).browserSlots).toBe(1);
      expect(laned(pauses, [], 0).browserSlots).toBe(1);
      expect(laned({ browserSlots: 1, pausesMining: true }).browserSlots).toBe(1);
      expect(laned({ pausesMining: true }, [], 0).browserSlots).toBe(0);
    });

    it('runs lane checks side by side up to the number of spares, beside checks alone on the main instance', async () => {
      const claims = [laned({ exclusive: ['clock'] }), laned({ exclusive: ['main-merchant-books'] }), laned({ exclusive: ['clock'] })];
      claims.push(claim({ exclusive: ['rate-limit-window'] }, [], false), claim());
      const { log, most } = await simulate(claims, 8, undefined, 2);
      // The main instance's alone check (3) and two lane checks start at once; the third lane check waits for a spare.
      expect(log.slice(0, 3)).toEqual(['start 3', 'start 0', 'start 1']);
      expect(log.indexOf('start 2')).toBeGreaterThan(Math.min(log.indexOf('end 0'), log.indexOf('end 1')));
      expect(most).toBeLessThanOrEqual(3);
    });

    it('lets a browser check of the main instance overtake a browser check waiting for a spare, not one waiting for slots', async () => {
      // Spare 1 is busy with 0; lane browser check 1 waits for it; main browser checks 2 and 3 (one slot each) start beside 0.
      const claims = [
        laned({ exclusive: ['clock'] }),
        laned({ exclusive: ['clock'], browserSlots: 2 }),
        claim({ browserSlots: 1 }),
        claim({ browserSlots: 1 }),
      ];
      const { log } = await simulate(claims, 8, (index) => new Promise((resolve) => setTimeout(resolve, [40, 5, 80, 80][index])), 1);
      expect(log.slice(0, 3)).toEqual(['start 0', 'start 2', 'start 3']);
      // Once the spare is free, 1 waits for the slots 2 and 3 hold, then runs.
      expect(log.indexOf('start 1')).toBeGreaterThan(Math.max(log.indexOf('end 0'), log.indexOf('end 2'), log.indexOf('end 3')));
      // Waiting for slots (its spare is free), a lane browser check holds back a later browser check that would fit.
      const held = [claim({ browserSlots: 1 }), laned({ exclusive: ['clock'], browserSlots: 2 }), claim({ browserSlots: 1 })];
      const second = await simulate(held, 8, (index) => new Promise((resolve) => setTimeout(resolve, index === 0 ? 30 : 5)), 1);
      expect(second.log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    });

    it('lets a clock mover on the main instance be alone while lane checks run, and readers wait for the lanes', async () => {
      const claims = [
        laned({ exclusive: ['clock'] }),
        claim({ exclusive: ['clock'], browserSlots: 1 }, [], false),
        claim({}, ['cross-cutting']),
      ];
      const { log } = await simulate(
        claims,
        4,
        async (index, log) => {
          if (index === 1) {
            await claims[1]!.enterExclusive!();
            log.push('moved 1');
          }
          await new Promise((resolve) => setTimeout(resolve, index === 0 ? 40 : 5));
        },
        1,
      );
      // The main instance's mover was alone (lane check 0 still running) long before 0 ended; the reader came last.
      expect(log.indexOf('alone 1')).toBeLessThan(log.indexOf('end 0'));
      expect(log.indexOf('moved 1')).toBeLessThan(log.indexOf('end 0'));
      expect(log.indexOf('start 2')).toBeGreaterThan(log.indexOf('end 0'));
    });
  });

  it('starts nothing more once told so, and returns what never started', async () => {
    const claims = Array.from({ length: 5 }, () => claim());
    let started = 0;
    const notStarted = await runScheduled(
      claims,
      runOrder(claims),
      { workers: 2, browserCapacity: 1 },
      {
        mayStart: () => started < 2,
        run: async () => {
          started++;
          await tick();
        },
      },
    );
    expect(notStarted).toEqual([2, 3, 4]);
  });
});
