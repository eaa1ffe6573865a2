// Spare target instances (lanes) in a real black-box run: the simulator started by command, on its own chains and
// libfaketime clock, once at --workers 1 (one instance) and once at the default with spares. The clock movers and
// the checks that need the main merchant alone run on the spares, beside each other and beside the plain checks; the
// verdicts, findings and matrix are those of the run one check at a time; every instance's traffic is recorded and
// says which instance answered; and nothing is left running, also when --max-run-time stops the run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runConformance, type ConformanceOptions, type ProgressEvent } from '../index.ts';
import { childProcesses } from '../test-support/child-processes.ts';
import { verdicts } from '../test-support/verdicts.ts';
import { hasLibfaketime } from './faketime-clock.ts';

const bin = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));
const simulatorCommand = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} start --no-control --no-demo-payment`;

/** Clock movers and checks alone with the main merchant's books or endpoint: each runs on a spare. */
const ON_SPARES = [
  'auth.expired-key',
  'lifecycle.expiry',
  'webhooks.retry-schedule',
  'pagination.page-size',
  'api-keys.limit-and-whitelist',
  'webhook-config.rotate-and-deliveries',
  'webhooks.test-event',
  'rate-limit.header-semantics',
];
/** With a plain check and the readers of the run. */
const ONLY = [...ON_SPARES, 'lifecycle.cancel', 'history.payment-invariants', 'history.events-against-history', 'response.conformance'];

interface Observed {
  outcome: Awaited<ReturnType<typeof runConformance>>;
  /** Check id → the spare it ran on. */
  lanes: Map<string, number>;
  spans: Map<string, { start: number; end: number }>;
}

async function run(options: Partial<ConformanceOptions>): Promise<Observed> {
  const lanes = new Map<string, number>();
  const spans = new Map<string, { start: number; end: number }>();
  const onProgress = (event: ProgressEvent) => {
    if (event.type === 'check-start') spans.set(event.id, { start: performance.now(), end: Number.POSITIVE_INFINITY });
    else if (event.type === 'check-end' && spans.has(event.result.id)) spans.get(event.result.id)!.end = performance.now();
    else if (event.type === 'check-progress' && event.message.startsWith('on spare target instance '))
      lanes.set(event.id, Number(event.message.split(' ')[4]));
  };
  const outcome = await runConformance({
    targetCommand: simulatorCommand,
    customer: false,
    only: ONLY,
    seed: 2929,
    formats: ['json'],
    progress: false,
    write: () => undefined,
    reportDir: mkdtempSync(join(tmpdir(), 'stablepay-lanes-')),
    onProgress,
    ...options,
  } as ConformanceOptions);
  return { outcome, lanes, spans };
}

describe.skipIf(!hasLibfaketime())('black-box lanes: spare target instances', () => {
  it('gives the verdicts of the run one check at a time, with the clock movers and alone checks on spares side by side', async () => {
    const one = await run({ workers: 1 });
    expect(one.lanes.size).toBe(0);
    expect(childProcesses()).toEqual([]);
    const lanes = await run({ workers: 4, instances: 3 });
    expect(childProcesses()).toEqual([]);
    const notes = lanes.outcome.result.summary.capabilityNotes.join('\n');
    expect(notes).toMatch(/lanes: 2 spare instances of the target .*they share no store/);
    // Every clock mover and alone check of the selection ran on a spare, and two of them at once.
    expect([...lanes.lanes.keys()].sort()).toEqual([...ON_SPARES].sort());
    expect(new Set(lanes.lanes.values())).toEqual(new Set([1, 2]));
    const onLanes = [...lanes.lanes.keys()].map((id) => lanes.spans.get(id)!);
    expect(onLanes.some((a) => onLanes.some((b) => a !== b && a.start < b.end && b.start < a.end))).toBe(true);
    // The same verdicts, findings and matrix; no finding at all against the simulator.
    expect(verdicts(lanes.outcome.result)).toEqual(verdicts(one.outcome.result));
    expect(lanes.outcome.result.failures).toEqual([]);
    expect(lanes.outcome.result.checks.find((c) => c.id === 'history.payment-invariants')?.result).toBe('pass');
  }, 400_000);

  it('stops every instance when the run is stopped in the middle (a spare busy with a check)', async () => {
    const stop = new AbortController();
    const stopped = await run({
      workers: 4,
      instances: 3,
      only: ['webhooks.retry-schedule', 'lifecycle.cancel'],
      signal: stop.signal,
      onProgress: (event) => {
        if (event.type === 'check-progress' && event.message.startsWith('on spare target instance')) setTimeout(() => stop.abort(), 1_000);
      },
    });
    expect(stopped.outcome.result.summary.interrupted?.by).toBe('SIGINT');
    expect(stopped.outcome.result.checks.find((c) => c.id === 'webhooks.retry-schedule')?.result).toBe('not-exercised');
    expect(childProcesses()).toEqual([]);
  }, 120_000);
});
