// `--target-image`: the implementation as a container, started with testcontainers' GenericContainer from a local
// image only (nothing is pulled: no registry is assumed). Ryuk, the reaper, is off unless asked for (its image cannot be
// pulled offline); the suite removes the container itself, also on failure and Ctrl-C. The wait is on an HTTP path or
// a log line, never on a listening port: a minimal image has no shell for that check. The container's output is kept
// in the report directory; libfaketime and the timestamp file are bind-mounted in.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { RunningTarget } from './command-target.ts';
import { TARGET_DEFAULTS } from '../black-box-options.ts';
import { TargetError } from './target-errors.ts';
import type { ReadySignal } from './wait-until-ready.ts';

/** How a container reaches services on the host (Docker's host-gateway alias, added to the container's /etc/hosts). */
export const HOST_FROM_CONTAINER = 'host.docker.internal';

export interface StartImageTargetParameters {
  image: string;
  containerPort: number;
  /** The host port the container port is published on, chosen by the suite so the target can be told its public URL. */
  hostPort: number;
  env: Record<string, string>;
  ready: ReadySignal;
  startTimeoutMs: number;
  logPath: string;
  reaper: boolean;
  /** Host paths mounted read-only into the container (libfaketime, the timestamp file's directory). */
  mounts: { source: string; target: string }[];
}

/** Label on every container a run starts, so a teardown can find one whose start it interrupted. */
const RUN_LABEL = 'dev.stablepay.conformance-run';

/**
 * `onStarting` receives a teardown step before the container exists: it removes whatever this run started, even
 * when Ctrl-C comes in the middle of the start.
 */
export async function startImageTarget(
  params: StartImageTargetParameters,
  onStarting: (stop: () => Promise<void>) => void,
): Promise<RunningTarget> {
  process.env.TESTCONTAINERS_RYUK_DISABLED = params.reaper ? 'false' : 'true';
  const { GenericContainer, ImageName, Wait, getContainerRuntimeClient } = await import('testcontainers');
  let client: Awaited<ReturnType<typeof getContainerRuntimeClient>>;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw new TargetError(
      `no container runtime is reachable for --target-image (is dockerd running?): ${(error as Error).message.split('\n')[0]}`,
    );
  }
  // testcontainers pulls a missing image whatever the pull policy says; a local-only run must ask first.
  if (!(await client.image.exists(ImageName.fromString(params.image)))) {
    throw new TargetError(
      `the image ${params.image} is not present locally and the suite never pulls: build it (npm run build:image for stablepay:local) or docker load it`,
    );
  }
  const runId = `${process.pid}-${Date.now()}`;
  let stopStarted: (() => Promise<void>) | undefined;
  onStarting(async () => {
    if (stopStarted) return stopStarted();
    for (const info of await client.container.list()) {
      if (info.Labels?.[RUN_LABEL] !== runId) continue;
      const container = client.container.getById(info.Id);
      await client.container.stop(container, { timeout: 0 }).catch(() => undefined);
      await client.container.remove(container, { removeVolumes: true }).catch(() => undefined);
    }
  });
  mkdirSync(dirname(params.logPath), { recursive: true });
  const log = createWriteStream(params.logPath);
  const wait =
    params.ready.kind === 'http'
      ? Wait.forHttp(params.ready.path, params.containerPort).forStatusCodeMatching((status) => status < 500)
      : Wait.forLogMessage(params.ready.text);
  const container = new GenericContainer(params.image)
    .withPullPolicy({ shouldPull: () => false })
    .withExposedPorts({ container: params.containerPort, host: params.hostPort })
    .withLabels({ [RUN_LABEL]: runId })
    .withEnvironment(params.env)
    .withExtraHosts([{ host: HOST_FROM_CONTAINER, ipAddress: 'host-gateway' }])
    .withBindMounts(params.mounts.map((m) => ({ ...m, mode: 'ro' as const })))
    .withLogConsumer((stream: Readable) => stream.pipe(log))
    .withWaitStrategy(wait)
    .withStartupTimeout(params.startTimeoutMs);
  let started: Awaited<ReturnType<typeof container.start>>;
  try {
    started = await container.start();
  } catch (error) {
    log.end();
    throw new TargetError(imageFailure(params.image, error, params.logPath));
  }
  // A process that exits without stop() (a second Ctrl-C exits at once) removes the container on its way out, with the
  // docker CLI where there is one (an exit handler cannot wait for the API client).
  const removeOnExit = (): void =>
    void spawnSync('docker', ['rm', '--force', '--volumes', started.getId()], { stdio: 'ignore', timeout: 5_000 });
  process.on('exit', removeOnExit);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= started
      .stop({ remove: true, removeVolumes: true, timeout: TARGET_DEFAULTS.stopTimeoutMs })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        process.off('exit', removeOnExit);
        log.end();
      }));
  stopStarted = stop;
  const baseUrl = `http://127.0.0.1:${started.getMappedPort(params.containerPort)}`;
  // The image's identity for the reports: its ID (digest of its configuration) and any registry digests.
  const inspected = await client.image.inspect(ImageName.fromString(params.image)).catch(() => null);
  const identity = {
    kind: 'image' as const,
    image: params.image,
    imageId: inspected?.Id ?? null,
    repoDigests: inspected?.RepoDigests ?? [],
  };
  return {
    baseUrl,
    logPath: params.logPath,
    description: `image: ${params.image} (container ${started.getId().slice(0, 12)})`,
    identity,
    ready: async () => undefined,
    stop,
  };
}

function imageFailure(image: string, error: unknown, logPath: string): string {
  const message = (error as Error).message ?? String(error);
  if (/no such image|not found|pull access denied|manifest unknown/i.test(message)) {
    return `the image ${image} is not present locally and the suite never pulls: build it (npm run build:image for stablepay:local) or docker load it`;
  }
  if (/timed? ?out|timeout/i.test(message))
    return `the container of ${image} did not become ready in time (${message.split('\n')[0]}); its output is in ${logPath}`;
  return `the container of ${image} could not be started: ${message.split('\n')[0]}; its output is in ${logPath}`;
}

/** Where the timestamp file is seen inside the container. */
export function containerPath(hostFile: string, containerDir: string): string {
  return `${containerDir}/${basename(hostFile)}`;
}
