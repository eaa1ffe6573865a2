// create.valid-requests judges the create defaults (acceptedChains, acceptedTokens, expiresAt) on every seed. The
// generator leaves each optional field out in about one case of six; with seed 1818105554 none of the 20 generated
// bodies left out acceptedChains or acceptedTokens, and the self-test (a random seed per run) failed on it.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import { runConformance } from '../../index.ts';
import { startSimulator } from '../../test-support/simulator.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startSimulator();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

it('judges the defaults of a create even when no generated body left them out (seed 1818105554)', async () => {
  const outcome = await runConformance({
    baseUrl: server.url,
    apiKey: server.simulator.defaultApiKey,
    reportDir: await mkdtemp(join(tmpdir(), 'cf-defaults-')),
    seed: 1818105554,
    only: ['create.valid-requests'],
    formats: ['json'],
    write: () => undefined,
  });
  expect(outcome.result.checks.find((c) => c.id === 'create.valid-requests')?.result).toBe('pass');
  const judged = (id: string) =>
    outcome.result.traceability.find((row) => row.requirement.id === id)?.checks.some((c) => c.result === 'pass');
  for (const id of ['PAY-CREATE-ACCEPTED-CHAINS-DEFAULT', 'PAY-CREATE-ACCEPTED-TOKENS-DEFAULT', 'PAY-CREATE-EXPIRES-AT-DEFAULT'])
    expect(judged(id), id).toBe(true);
}, 120_000);
