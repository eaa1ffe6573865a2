// Runs the suite against a fresh fixture service (in-process) over some checks; the fixture is closed afterwards.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../../index.ts';
import type { ImplementationProfile } from '../../premises/profile.ts';
import type { RunResult } from '../../types.ts';
import type { FixtureChoices, FixtureFault } from './choices.ts';
import { startFixtureService } from './server.ts';

export interface FixtureRun {
  choices?: Partial<FixtureChoices>;
  faults?: FixtureFault[];
  control?: boolean;
  /** Whether the fixture sends the simulator-only X-Simulator-Attempt-Timestamp (default: with the control API). */
  attemptTimeHeader?: boolean;
  checks: string[];
  profile?: ImplementationProfile;
}

export async function runAgainstFixture(run: FixtureRun): Promise<RunResult> {
  const fixture = await startFixtureService({
    choices: run.choices ?? {},
    faults: run.faults ?? [],
    control: run.control ?? false,
    ...(run.attemptTimeHeader !== undefined ? { attemptTimeHeader: run.attemptTimeHeader } : {}),
  });
  try {
    const outcome = await runConformance({
      baseUrl: fixture.url,
      apiKey: fixture.apiKey,
      secondApiKey: fixture.secondApiKey,
      control: run.control ?? false,
      only: run.checks,
      seed: 23,
      runs: 3,
      formats: ['json'],
      progress: false,
      write: () => undefined,
      reportDir: mkdtempSync(join(tmpdir(), 'stablepay-fixture-run-')),
      ...(run.profile ? { profile: run.profile } : {}),
    });
    return outcome.result;
  } finally {
    await fixture.close();
  }
}

/** The documented failures of a run, one line each (an empty list is what a legal implementation gets). */
export function documentedFailures(result: RunResult): string[] {
  return result.failures
    .filter((f) => f.severity === 'fail')
    .map((f) => `${f.checkId} [${f.requirement}] ${f.title}: ${f.message.split('\n')[0]}`);
}
