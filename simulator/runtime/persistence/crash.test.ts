// Durable mode survives SIGKILL on both engines: seeded random operations against `stablepay start --no-chains`
// (--state-dir: the embedded PGlite database; --database-url: a throw-away Postgres cluster), with the child killed
// at random points (between operations and in the middle of a request, with webhook deliveries pending) and
// restarted on the same store. See crash-run.ts for the model; bench/durable.ts prints the same figures as a table.
import { describe, expect, it } from 'vitest';
import { type CrashRunResult, crashRun } from '../../test-support/crash-run.ts';
import { startPostgresCluster } from '../../test-support/postgres-cluster.ts';

function expectNothingLost(engine: string, result: CrashRunResult, operations: number): void {
  // The figures, for the record (docs/decisions.md and the README quote them): one line per engine.
  const r = result;
  const restarts = [...r.restartMs].sort((a, b) => a - b);
  console.info(
    `crash run (${engine}): ${r.operations} operations (${r.acknowledged} answered, ${r.unacknowledged} cut off by a kill), ` +
      `${r.kills - r.sigterms} SIGKILLs + ${r.sigterms} SIGTERMs, ${r.stateMismatches.length} state mismatches after the restarts, ` +
      `${r.payments} payments / ${r.events} implied events at the end, ${r.lostEvents.length} lost, ${r.duplicatedEvents.length} duplicated, ` +
      `${r.resentInFlight} in-flight attempts sent again; restart ${Math.round(restarts[0] ?? 0)}-${Math.round(restarts.at(-1) ?? 0)} ms`,
  );
  expect(result.operations).toBe(operations);
  expect(result.kills - result.sigterms).toBeGreaterThanOrEqual(5);
  expect(result.sigterms).toBeGreaterThanOrEqual(1);
  expect(result.stateMismatches).toEqual([]);
  expect(result.lostEvents).toEqual([]);
  expect(result.duplicatedEvents).toEqual([]);
  expect(result.events).toBeGreaterThan(operations / 10);
  // An attempt in flight at a kill is sent again after the restart (at-least-once); never more than once per kill.
  expect(result.resentInFlight).toBeLessThanOrEqual(result.kills);
}

// Each restart of a PGlite child opens the database (WebAssembly): 8 to 27 s apiece on this 2-core machine at load
// 16, so the run is shorter than the 1,000 operations of bench/durable.ts. The limits are for a hang, not speed.
describe('durable mode under SIGKILL', () => {
  it('--state-dir (PGlite), 300 operations, random SIGKILLs and SIGTERMs: the state after each restart equals the model; every event delivered once or pending', async () => {
    expectNothingLost('PGlite', await crashRun({ operations: 300, killRate: 0.04, seed: 14 }), 300);
  }, 900_000);

  it('--database-url (Postgres), 600 operations, random SIGKILLs and SIGTERMs: the same', async () => {
    const cluster = await startPostgresCluster();
    try {
      expectNothingLost('Postgres', await crashRun({ operations: 600, killRate: 0.03, seed: 15, databaseUrl: cluster.url }), 600);
    } finally {
      cluster.stop();
    }
  }, 900_000);
});
