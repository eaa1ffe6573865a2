// The conformance suite against two simulator replicas behind a round-robin balancer passes as against one (issue 28):
// a throw-away Postgres cluster, replicas started with --database-url on one database of it (each with its own pool,
// memory and timers; --pay-url the balancer), a balancer sending each request to the next replica in turn, and one
// seeded run of the suite through the balancer, control API included. The reference is the same run against one
// replica behind the same balancer, on a database of its own: every check must end the same (result and findings).
// Browser checks are skipped (the replicas run without chains); README "Several simulators, one sandbox".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '@stablepay/simulator/test-support/postgres-cluster';
import { startBalancer } from '@stablepay/simulator/balancer';
import { type RunningServer, startServer } from '@stablepay/simulator/server';
import { runConformance, type RunResult } from './index.ts';
import { quietLogger } from './test-support/simulator.ts';

const SEED = 28_028;
const KEY = 'pk_balanced000000000000000000000000000000000000000';

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 240_000);
afterAll(() => cluster?.stop());

interface Outcome {
  /** Per check: its result and its findings, what must not depend on the number of replicas. */
  verdicts: Map<string, string>;
  result: RunResult;
  /** Requests the balancer sent to each replica. */
  perReplica: number[];
}

async function runThrough(replicas: number): Promise<Outcome> {
  const databaseUrl = cluster.createDatabase(`replicas${replicas}`);
  const balancer = await startBalancer();
  const servers: RunningServer[] = [];
  const reportDir = mkdtempSync(join(tmpdir(), 'stablepay-replicas-'));
  try {
    // One after the other, as a second replica joins a running one (it finds the first one's merchant and key).
    for (let i = 0; i < replicas; i += 1)
      servers.push(await startServer({ port: 0, logger: quietLogger, databaseUrl, payUrl: balancer.url, defaultApiKey: KEY }));
    balancer.targets = servers.map((s) => s.url);
    const { result } = await runConformance({
      baseUrl: balancer.url,
      apiKey: KEY,
      controlUrl: `${balancer.url}/control/v1`,
      seed: SEED,
      skip: ['browser'],
      formats: ['json'],
      progress: false,
      write: () => undefined,
      reportDir,
    });
    const verdicts = new Map(
      result.checks.map((c) => [
        c.id,
        [
          c.result,
          ...c.failures.map((f) => `${f.severity} [${f.requirement}] ${f.title}`).sort(),
          ...(c.result === 'not-exercised' || c.result === 'skipped' ? [c.reason?.replace(/\d+/g, 'N') ?? ''] : []),
        ].join(' | '),
      ]),
    );
    return { verdicts, result, perReplica: servers.map((s) => balancer.counts.get(s.url) ?? 0) };
  } finally {
    for (const server of servers) await server.close();
    await balancer.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** The differing check's findings in full (which attempt, when): the reports go with their temp dir. */
const findings = (one: Outcome, two: Outcome, id: string): string =>
  [one, two]
    .flatMap((outcome, i) =>
      (outcome.result.checks.find((c) => c.id === id)?.failures ?? []).map((f) => `\n${i + 1} replica(s): ${f.message}`),
    )
    .join('');

it('every check ends the same through a balancer in front of two replicas as in front of one', async () => {
  const one = await runThrough(1);
  const two = await runThrough(2);
  const differences = [...new Set([...one.verdicts.keys(), ...two.verdicts.keys()])]
    .filter((id) => one.verdicts.get(id) !== two.verdicts.get(id))
    .map((id) => `${id}: one replica "${one.verdicts.get(id)}", two replicas "${two.verdicts.get(id)}"${findings(one, two, id)}`);
  console.info(
    `conformance through a round-robin balancer: one replica ${JSON.stringify(one.result.summary.counts)}, ` +
      `two replicas ${JSON.stringify(two.result.summary.counts)} (requests per replica ${two.perReplica.join(' / ')}), ` +
      `${differences.length} checks differ`,
  );
  expect(differences).toEqual([]);
  // Both replicas served a fair share (round robin), and the run judged something: a suite that passed nothing
  // would compare equal for nothing.
  expect(Math.min(...two.perReplica)).toBeGreaterThan(two.perReplica.reduce((a, b) => a + b, 0) / 3);
  expect(two.result.summary.counts.passed).toBeGreaterThan(20);
  expect(two.result.checks.filter((c) => c.result === 'fail' || c.result === 'error').map((c) => c.id)).toEqual([]);
}, 1_800_000);
