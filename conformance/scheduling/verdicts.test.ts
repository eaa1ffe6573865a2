// The heart of --workers: the same run at --workers 1 and at --workers 4, with one seed, gives the same results,
// findings and traceability, lists the checks in the same order, and never runs a check that holds something alone
// beside another one. Against the simulator (control API, no findings) and against the suite's fixture service with
// documented faults, with and without its control API (without one, the webhook checks share the main merchant's one
// endpoint and the list checks its books).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import { ALL_CHECKS, runConformance, type ConformanceOptions, type ProgressEvent, type RunResult } from '../index.ts';
import { startSimulator } from '../test-support/simulator.ts';
import { startFixtureService } from '../test-support/fixture-service/server.ts';
import type { FixtureFault } from '../test-support/fixture-service/choices.ts';
import { claimsOf, readsOnly } from './resources.ts';
import { verdicts } from '../test-support/verdicts.ts';

const SEED = 20_291;

interface Span {
  start: number;
  alone: number;
  end: number;
}

interface Observed {
  result: RunResult;
  /** Per check, when it started, when it was alone from (its start, or its exclusive phase), and when it ended (ms). */
  spans: Map<string, Span>;
  maxRunning: number;
}

async function run(options: ConformanceOptions, workers: number): Promise<Observed> {
  const spans = new Map<string, Span>();
  let maxRunning = 0;
  const onProgress = (event: ProgressEvent) => {
    if (event.type === 'check-start') {
      spans.set(event.id, { start: performance.now(), alone: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY });
      maxRunning = Math.max(maxRunning, event.running?.length ?? 1);
    } else if (event.type === 'check-progress' && event.message.startsWith('alone from here on'))
      spans.get(event.id)!.alone = performance.now();
    else if (event.type === 'check-end' && spans.has(event.result.id)) spans.get(event.result.id)!.end = performance.now();
  };
  const outcome = await runConformance({
    ...options,
    seed: SEED,
    workers,
    formats: ['json'],
    progress: false,
    write: () => undefined,
    reportDir: mkdtempSync(join(tmpdir(), 'stablepay-workers-')),
    onProgress,
  });
  return { result: outcome.result, spans, maxRunning };
}

/** A check holding anything alone ran with no other check beside it (readers of the recorded traffic beside each other only). */
function exclusiveOverlaps(observed: Observed, control: boolean): string[] {
  const problems: string[] = [];
  const byId = new Map(ALL_CHECKS.map((check) => [check.id, check]));
  for (const [id, span] of observed.spans) {
    const claims = claimsOf(byId.get(id)!, { control, browserCapacity: 2 });
    if (claims.exclusive.size === 0) continue;
    for (const [other, o] of observed.spans)
      if (
        other !== id &&
        o.start < span.end &&
        span.start < o.end &&
        !(readsOnly(claims) && readsOnly(claimsOf(byId.get(other)!, { control, browserCapacity: 2 })))
      )
        problems.push(`${id} (alone: ${[...claims.exclusive].join(', ')}) beside ${other}`);
  }
  return problems;
}

async function compare(options: ConformanceOptions, control: boolean): Promise<Observed> {
  const one = await run(options, 1);
  const four = await run(options, 4);
  expect(one.maxRunning).toBe(1);
  // The point of it: checks did run side by side.
  expect(four.maxRunning).toBeGreaterThan(1);
  expect(exclusiveOverlaps(four, control)).toEqual([]);
  expect(verdicts(four.result)).toEqual(verdicts(one.result));
  return four;
}

describe('--workers 1 and --workers 4 give the same verdicts', () => {
  let simulator: RunningServer;
  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(async () => {
    await simulator?.close();
  });

  it('against the simulator with its control API (every check but the browser ones)', async () => {
    const four = await compare({ baseUrl: simulator.url, apiKey: simulator.simulator.defaultApiKey, skip: ['browser'] }, true);
    // The simulator has test clocks: the checks that only move time did it on clocks of their own, side by side.
    const movers = ALL_CHECKS.filter((c) => c.resources?.exclusive?.join() === 'clock').map((c) => four.spans.get(c.id));
    const overlap = (a?: Span, b?: Span) => Boolean(a && b && a !== b && a.start < b.end && b.start < a.end);
    expect(movers.some((a) => movers.some((b) => overlap(a, b)))).toBe(true);
  }, 300_000);

  const FAULTS: FixtureFault[] = [
    'revoked-key-accepted',
    'list-skips-item',
    'signature-wrong-key',
    'cancelled-event-dropped',
    'rate-headers-missing-on-errors',
    'unknown-payment-400',
  ];

  for (const control of [true, false]) {
    it(`against the fixture service with documented faults, ${control ? 'with' : 'without'} its control API`, async () => {
      // A fresh fixture per run: both runs meet the same implementation in the same state.
      const runOn = async (workers: number) => {
        const fixture = await startFixtureService({ faults: FAULTS, control });
        try {
          return await run(
            { baseUrl: fixture.url, apiKey: fixture.apiKey, secondApiKey: fixture.secondApiKey, control, runs: 5, skip: ['browser'] },
            workers,
          );
        } finally {
          await fixture.close();
        }
      };
      const one = await runOn(1);
      const four = await runOn(4);
      expect(one.maxRunning).toBe(1);
      expect(four.maxRunning).toBeGreaterThan(1);
      expect(exclusiveOverlaps(four, control)).toEqual([]);
      // The faults were found (a run that judged nothing would compare equal for nothing).
      expect(one.result.failures.filter((f) => f.severity === 'fail').length).toBeGreaterThan(3);
      expect(verdicts(four.result)).toEqual(verdicts(one.result));
    }, 300_000);
  }
});
