// The lifecycle model-based test (conformance/model/) with more and longer runs than a default
// conformance run, against the in-process simulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import { runConformance } from '@stablepay/conformance';
import { startSimulator } from '@stablepay/conformance/test-support/simulator';

describe('lifecycle state model against the simulator', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startSimulator();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds over 60 random command sequences', async () => {
    const seed = Number(process.env.CONFORMANCE_SEED ?? Math.floor(Math.random() * 0x7fffffff));
    const outcome = await runConformance({
      baseUrl: server.url,
      apiKey: server.simulator.defaultApiKey,
      only: ['lifecycle.state-model'],
      runs: 60,
      seed,
      formats: ['json'],
      reportDir: `${process.env.TMPDIR ?? '/tmp'}/cf-model-${seed}`,
      webhooks: false,
      write: () => {},
    });
    const check = outcome.result.checks.find((c) => c.id === 'lifecycle.state-model')!;
    expect(
      check.failures.map((f) => `${f.title}: ${f.message}\n${f.fastCheck ? `${f.fastCheck.property}=${f.fastCheck.path}` : ''}`),
      `seed ${seed}`,
    ).toEqual([]);
    expect(check.result).toBe('pass');
    expect(check.cases).toBe(60);
  }, 120_000);
});
