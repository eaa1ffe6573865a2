// The spare target instances of a black-box run ("lanes", scheduling/lanes.ts): more copies of the target, each with
// five chains and a libfaketime clock of its own, started beside the main one so they cost the run no wall time of
// their own (their start overlaps the main instance's). A spare that does not start is a note, never a failure: the
// run has one lane fewer. Every spare is stopped with the main instance, on every exit path.
import { UsageError } from '../options.ts';
import { TARGET_DEFAULTS } from '../black-box-options.ts';
import { RunStop } from '../run-stop.ts';
import { startBlackBox, type BlackBox, type BlackBoxParameters } from './start-black-box.ts';

export interface Instances {
  main: BlackBox;
  spares: BlackBox[];
  /** What the run should say about its spares (how many, which could not start, why none). */
  notes: string[];
  /** Stops every instance (idempotent). */
  teardown(): Promise<void>;
}

/**
 * How many instances to start: `--instances` when given; by default several when the suite picks the target's port and
 * runs more than one check at once, else one. A fixed port (`--base-url` or `--target-port` for a command) cannot be
 * shared, so asking for more is a usage error.
 */
export function instanceCount(
  params: Pick<BlackBoxParameters, 'instances' | 'baseUrl' | 'targetPort' | 'targetImage'>,
  workers: number,
): number {
  const fixedPort = !params.targetImage && Boolean(params.baseUrl ?? params.targetPort);
  if (params.instances !== undefined) {
    if (params.instances > 1 && fixedPort)
      throw new UsageError(
        `--instances ${params.instances}: each instance listens on a port of its own, so leave the port to the suite (no --base-url or --target-port with --target-command), or give --instances 1`,
      );
    return params.instances;
  }
  return fixedPort || workers <= 1 ? 1 : TARGET_DEFAULTS.instances;
}

/** Starts the main instance and `count - 1` spares at once; the main one failing fails the run, a spare is a note. */
export async function startInstances(params: BlackBoxParameters, count: number): Promise<Instances> {
  const spareCount = Math.max(0, count - 1);
  const started = await Promise.allSettled([
    startBlackBox(params),
    ...Array.from({ length: spareCount }, (_, index) =>
      // A spare's progress is not printed (it would repeat the main one's); its log is target-<n>.log.
      startBlackBox({ ...params, log: () => undefined, logName: `target-${index + 2}.log` }),
    ),
  ]);
  const running = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const teardown = () => Promise.all(running.map((instance) => instance.teardown())).then(() => undefined);
  const [main, ...spareOutcomes] = started;
  if (main!.status === 'rejected') {
    await teardown();
    throw main!.reason;
  }
  const spares: BlackBox[] = [];
  const notes: string[] = [];
  for (const [index, outcome] of spareOutcomes.entries()) {
    if (outcome.status === 'fulfilled') spares.push(outcome.value);
    else {
      if (outcome.reason instanceof RunStop) {
        await teardown();
        throw outcome.reason;
      }
      notes.push(
        `lanes: spare instance ${index + 1} could not be started (${(outcome.reason as Error).message}); the run has one lane fewer`,
      );
    }
  }
  return { main: main!.value, spares, notes, teardown };
}
