// --target-image needs a Docker daemon and the image stablepay:local (npm run build:image). Without them these tests
// are skipped and say why; CI sets STABLEPAY_REQUIRE_DOCKER=1, which turns that skip into a failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { TargetError } from './target-errors.ts';

const IMAGE = 'stablepay:local';

function docker(args: string[]): string | undefined {
  try {
    return execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const missing =
  docker(['info', '--format', '{{.ServerVersion}}']) === undefined
    ? 'no Docker daemon is reachable'
    : docker(['image', 'inspect', IMAGE]) === undefined
      ? `the image ${IMAGE} is not built (npm run build:image)`
      : undefined;
const required = /^(1|true|yes)$/i.test(process.env.STABLEPAY_REQUIRE_DOCKER ?? '');
const quiet = { formats: ['json' as const], progress: false, write: () => undefined };
/** Containers this suite's runs left behind (there must be none). */
const leftovers = (): string => (docker(['ps', '-aq', '--filter', 'label=dev.stablepay.conformance-run']) ?? '').trim();

describe('--target-image prerequisites', () => {
  it.runIf(required)('has Docker and the image when CI requires them', () => {
    expect(missing, 'STABLEPAY_REQUIRE_DOCKER is set').toBeUndefined();
  });
  it.skipIf(required || !missing)(`is skipped here: ${missing ?? ''}`, () => undefined);
});

describe('npm run build:image without a daemon', () => {
  it('ends with one sentence and exit 2, not a stack trace', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['scripts/build-image.mjs', '--tag', 'stablepay-never:built'], {
      encoding: 'utf8',
      env: { ...process.env, DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^build:image: (the Docker daemon does not answer|the docker command is not installed)/);
  });
});

describe.skipIf(missing !== undefined)('--target-image (testcontainers, no registry)', () => {
  it('refuses an image that is not present locally, without pulling, and leaves nothing running', async () => {
    const run = runConformance({
      ...quiet,
      targetImage: 'stablepay-missing:never-built',
      faketime: false,
      reportDir: mkdtempSync(join(tmpdir(), 'stablepay-image-')),
    });
    await expect(run).rejects.toThrow(TargetError);
    await expect(run).rejects.toThrow('the image stablepay-missing:never-built is not present locally and the suite never pulls');
    expect(leftovers()).toBe('');
  });

  it('runs the simulator image as a black-box target: its clock moved by libfaketime, chains and webhooks through the host gateway', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stablepay-image-'));
    const outcome = await runConformance({
      ...quiet,
      control: false,
      targetImage: IMAGE,
      targetEnv: { STABLEPAY_CONTROL: '0' },
      only: ['lifecycle.expiry', 'auth.expired-key', 'create.valid-requests'],
      reportDir: dir,
    });
    const results = Object.fromEntries(outcome.result.checks.filter((c) => c.result !== 'skipped').map((c) => [c.id, c.result]));
    expect(results).toEqual({ 'lifecycle.expiry': 'pass', 'auth.expired-key': 'pass', 'create.valid-requests': 'pass' });
    expect(outcome.result.summary.capabilityNotes.join('\n')).toMatch(/image: stablepay:local[\s\S]*clock: libfaketime moves the target/);
    // The reports identify the image by its ID (the digest of its configuration), as `docker image inspect` gives it.
    expect(outcome.result.metadata.target.started).toEqual({
      kind: 'image',
      image: IMAGE,
      imageId: docker(['image', 'inspect', IMAGE, '--format', '{{.Id}}'])?.trim(),
      repoDigests: expect.any(Array),
    });
    expect(readFileSync(join(dir, 'target.log'), 'utf8')).toContain('stablepay simulator is running');
    expect(leftovers()).toBe('');
  }, 240_000); // a container start on a busy machine takes most of a minute
});
