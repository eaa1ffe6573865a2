// The fixture service as a black-box target (--target-command, the suite's own chains, libfaketime moving its clock):
// the lenient key build (the expiry body ignored, expiresAt read back null) is not reported as a security
// failure; declared in the profile, the same body lets a key that outlives its expiry be caught.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { hasLibfaketime } from '../black-box/faketime-clock.ts';
import { childProcesses } from '../test-support/child-processes.ts';

const main = fileURLToPath(new URL('../test-support/fixture-service/main.ts', import.meta.url));
const fixtureCommand = `exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(main)}`;
const quiet = { formats: ['json' as const], progress: false, write: () => undefined, customer: false };

describe.skipIf(!hasLibfaketime())('the fixture service as a black-box target, its clock moved by libfaketime', () => {
  it('a key body whose expiry is ignored leaves the 30-day key unjudged, naming the premise; expiry itself passes', async () => {
    const outcome = await runConformance({
      ...quiet,
      targetCommand: fixtureCommand,
      targetEnv: { FIXTURE_CHOICES: JSON.stringify({ keyExpiryField: 'expiresAt', keyBodyLenient: true }) },
      only: ['auth.expired-key', 'lifecycle.expiry'],
      reportDir: mkdtempSync(join(tmpdir(), 'stablepay-fixture-target-')),
    });
    const byId = Object.fromEntries(outcome.result.checks.filter((c) => c.result !== 'skipped').map((c) => [c.id, c]));
    expect(byId['lifecycle.expiry']!.result).toBe('pass');
    expect(byId['auth.expired-key']!.result).toBe('not-exercised');
    expect(byId['auth.expired-key']!.reason).toMatch(/premise api-keys\.expiring-body refuted/);
    expect(outcome.result.premises.find((p) => p.id === 'api-keys.expiring-body')?.status).toBe('refuted');
    expect(outcome.exitCode).toBe(0);
    expect(childProcesses()).toEqual([]);
  }, 180_000);

  it('declared in the profile, the expiresAt body is used, and a key accepted past its expiry fails', async () => {
    const outcome = await runConformance({
      ...quiet,
      targetCommand: fixtureCommand,
      targetEnv: { FIXTURE_CHOICES: JSON.stringify({ keyExpiryField: 'expiresAt' }), FIXTURE_FAULTS: 'expired-key-accepted' },
      profile: { apiKeys: { expiringBody: { name: '{name}', expiresAt: '{expiresAt}' } } },
      only: ['auth.expired-key'],
      reportDir: mkdtempSync(join(tmpdir(), 'stablepay-fixture-target-')),
    });
    const check = outcome.result.checks.find((c) => c.id === 'auth.expired-key')!;
    expect(check.result).toBe('fail');
    expect(check.failures.map((f) => f.requirement)).toContain('AUTH-401-MISSING-INVALID');
    expect(outcome.result.premises.find((p) => p.id === 'api-keys.expiring-body')?.status).toBe('discovered');
    expect(childProcesses()).toEqual([]);
  }, 180_000);
});
