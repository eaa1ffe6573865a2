// Durable mode survives SIGKILL: 1,000 seeded random operations against `stablepay start --no-chains --state-dir`,
// with the child killed at random points (between operations and in the middle of a request) and restarted on the
// same directory. See crash-run.ts for the model; bench/durable.ts prints the same figures as a table.
import { describe, expect, it } from 'vitest';
import { crashRun } from '../../test-support/crash-run.ts';

describe('durable mode under SIGKILL', () => {
  it('1,000 operations, random SIGKILLs and SIGTERMs: the state after each restart equals the model; every event delivered once or pending', async () => {
    const result = await crashRun({ operations: 1000, killRate: 0.03, seed: 14 });
    expect(result.operations).toBe(1000);
    expect(result.kills).toBeGreaterThanOrEqual(5);
    expect(result.sigterms).toBeGreaterThanOrEqual(1);
    expect(result.kills - result.sigterms).toBeGreaterThanOrEqual(5);
    expect(result.stateMismatches).toEqual([]);
    expect(result.lostEvents).toEqual([]);
    expect(result.duplicatedEvents).toEqual([]);
    expect(result.events).toBeGreaterThan(100);
    // An attempt in flight at a kill is sent again after the restart (at-least-once); never more than once per kill.
    expect(result.resentInFlight).toBeLessThanOrEqual(result.kills);
    // About 35 s alone; it restarts a child some 35 times, so beside the other test files on a loaded 2-core machine
    // it has taken over 180 s. The limit is for a hang, not a speed claim.
  }, 420_000);
});
