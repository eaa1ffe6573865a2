// A black-box run's world (DESIGN §3a): the five chains through @viem/anvil, the target started by command or image
// with their URLs and the chains file, and its clock on libfaketime (checked to really move). Everything started here
// is stopped by teardown(), also when starting fails half-way or the run is stopped (Ctrl-C) in the middle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CHAIN_IDS } from '@stablepay/contract/chain-table';
import { startTestChains } from '@stablepay/chains/start-test-chains';
import { chainsFile, type ChainsFile } from '@stablepay/chains/chains-file';
import type { TimeTravel } from '../context.ts';
import { API_KEY_ENV } from '../defaults.ts';
import { UsageError } from '../options.ts';
import { launchCommandTarget, type RunningTarget } from './command-target.ts';
import { FaketimeClock, findLibfaketime } from './faketime-clock.ts';
import { HOST_FROM_CONTAINER, startImageTarget } from './image-target.ts';
import { ensurePortFree, freePort, portIsFree } from './ports.ts';
import { poke, probeClock } from './probe-clock.ts';
import { TARGET_DEFAULTS, type TargetOptions } from '../black-box-options.ts';
import { parseReadySignal } from './wait-until-ready.ts';
import { TargetError } from './target-errors.ts';
import { RunStop, untilStopped } from '../run-stop.ts';

export interface BlackBoxParameters extends TargetOptions {
  /** Where the target's log goes. */
  reportDir: string;
  /** The suite's base URL, when the user fixed it (a command target then listens on its port). */
  baseUrl?: string;
  /** Handed to the target as STABLEPAY_API_KEY, so an implementation can seed its merchant with it. */
  apiKey?: string;
  secondApiKey?: string;
  /** Receives progress lines. */
  log?: (line: string) => void;
  /** Aborted (with a RunStop) when the run stops: whatever has started is torn down and the stop is thrown. */
  signal?: AbortSignal;
  /** The target's log file in the report directory (a spare instance has its own). Default `target.log`. */
  logName?: string;
}

export interface BlackBox {
  baseUrl: string;
  timeTravel: TimeTravel | null;
  /** The target's time as the suite keeps it (moves with timeTravel). */
  now: () => number;
  /** The chains as the suite reaches them (127.0.0.1 URLs, also when the target is a container), with their keys. */
  chains: ChainsFile;
  notes: string[];
  /** What the suite started (command or image with its digest), for the reports' run metadata. */
  started?: RunningTarget['identity'];
  teardown(): Promise<void>;
}

/** Stops, in reverse order, whatever was started; each step runs even when an earlier one fails. */
class Teardown {
  private steps: (() => Promise<void> | void)[] = [];
  add(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    const steps = this.steps.reverse();
    this.steps = [];
    for (const step of steps)
      await Promise.resolve()
        .then(step)
        .catch(() => undefined);
  }
}

export function checkTargetOptions(options: TargetOptions): void {
  if (options.targetCommand && options.targetImage) throw new UsageError('give either --target-command or --target-image, not both');
  parseReadySignal(options.targetWait ?? TARGET_DEFAULTS.wait);
  for (const id of Object.keys(options.forks ?? {})) {
    if (!CHAIN_IDS.includes(Number(id))) throw new UsageError(`--fork: chain ${id} is not one of ${CHAIN_IDS.join(', ')}`);
  }
}

export async function startBlackBox(params: BlackBoxParameters): Promise<BlackBox> {
  checkTargetOptions(params);
  const ready = parseReadySignal(params.targetWait ?? TARGET_DEFAULTS.wait);
  // Everything that can be refused without starting anything is checked first.
  const library = params.faketime === false ? undefined : findLibfaketime(params.faketime);
  const teardown = new Teardown();
  // Stopping the run (the CLI's Ctrl-C, --max-run-time) in the middle of a start: the step is left, teardown runs.
  const step = <T>(started: Promise<T>, stopLate?: (value: T) => unknown): Promise<T> => untilStopped(params.signal, started, stopLate);
  try {
    const image = params.targetImage;
    // A command listens on a host port we choose (or check); a container's port is mapped by Docker.
    let port = 0;
    if (image) port = params.targetPort ?? TARGET_DEFAULTS.imagePort;
    else if (params.baseUrl) {
      port = Number(new URL(params.baseUrl).port || 80);
      await ensurePortFree(port);
    } else if (params.targetPort) {
      port = params.targetPort;
      await ensurePortFree(port);
    }

    const workDir = mkdtempSync(join(tmpdir(), 'stablepay-black-box-'));
    teardown.add(() => rmSync(workDir, { recursive: true, force: true }));
    params.log?.('starting the five chains');
    const chains = await step(
      startTestChains({
        filePath: join(workDir, 'chains.json'),
        ...(params.forks ? { forks: params.forks } : {}),
        // A container reaches the chains through the host gateway, so they listen on every interface.
        ...(image ? { host: '0.0.0.0', rpcUrlFor: (url: string) => url.replace('127.0.0.1', HOST_FROM_CONTAINER) } : {}),
      }),
      (late) => late.stop(),
    );
    teardown.add(() => chains.stop());
    const clock = library ? new FaketimeClock(library, (unixMs) => chains.network.syncTime(unixMs)) : undefined;
    if (clock) teardown.add(() => clock.dispose());

    const inContainer = {
      chainsDir: '/stablepay-chains',
      library: `${TARGET_DEFAULTS.containerFaketimeDir}/libfaketimeMT.so.1`,
      clockDir: `${TARGET_DEFAULTS.containerFaketimeDir}/clock`,
    };
    // Where the suite (and its browser customer) reaches the target: a container's port is published on a host port
    // the suite picks now, so the target can be told its public URL before it starts (it builds paymentUrl from it).
    // A free port is picked only now, after the chains took theirs: picked before them, the seconds they take to start
    // left a window in which an Anvil (of this instance or a spare starting beside it) took the same port.
    const portPicked = port === 0;
    if (port === 0) port = await freePort();
    const hostPort = image ? await freePort() : port;
    const urlFor = (hostPort: number) => params.baseUrl ?? `http://127.0.0.1:${hostPort}`;
    const envFor = (port: number, publicUrl: string): Record<string, string> => ({
      ...chains.env,
      STABLEPAY_PUBLIC_URL: publicUrl,
      ...(image ? { STABLEPAY_CHAINS_FILE: `${inContainer.chainsDir}/chains.json` } : {}),
      PORT: String(port),
      STABLEPAY_PORT: String(port),
      ...(params.apiKey ? { [API_KEY_ENV]: params.apiKey } : {}),
      ...(params.secondApiKey ? { STABLEPAY_SECOND_API_KEY: params.secondApiKey } : {}),
      ...(clock
        ? image
          ? clock.environment(inContainer.library, `${inContainer.clockDir}/${basename(clock.timestampFile)}`)
          : clock.environment()
        : {}),
      ...params.targetEnv,
    });
    const startTimeoutMs = (params.targetStartTimeoutSeconds ?? TARGET_DEFAULTS.startTimeoutSeconds) * 1000;
    const logPath = join(params.reportDir, params.logName ?? 'target.log');
    params.log?.(`starting the target: ${image ? `image ${image}` : params.targetCommand}`);
    let target: RunningTarget;
    if (image) {
      target = await step(
        startImageTarget(
          {
            image,
            containerPort: port,
            hostPort,
            env: envFor(port, urlFor(hostPort)),
            ready,
            startTimeoutMs,
            logPath,
            reaper: params.reaper ?? false,
            mounts: [
              { source: workDir, target: inContainer.chainsDir },
              ...(clock
                ? [
                    { source: clock.library, target: inContainer.library },
                    { source: clock.dir, target: inContainer.clockDir },
                  ]
                : []),
            ],
          },
          (stop) => teardown.add(stop),
        ),
      );
    } else {
      // A port the suite picked can be taken, between the pick and the target's bind, by another process (an Anvil of a
      // spare starting beside this instance binds a port of the kernel's choice): the target then exits before it
      // answers while something else holds its port. It is started again on a new port, at most twice; a port the
      // user fixed is never changed.
      for (let attempt = 1; ; attempt++) {
        const command = launchCommandTarget({
          command: params.targetCommand!,
          env: envFor(port, urlFor(port)),
          baseUrl: urlFor(port),
          ready,
          startTimeoutMs,
          logPath,
        });
        teardown.add(() => command.stop());
        try {
          await step(command.ready());
          target = command;
          break;
        } catch (error) {
          // ready() stopped the command: a port still taken now is held by someone else.
          if (!(error instanceof TargetError) || !portPicked || attempt >= 3 || (await portIsFree(port))) throw error;
          params.log?.(`port ${port} was taken by another process before the target listened; starting it again on a new port`);
          port = await freePort();
        }
      }
    }
    const baseUrl = target.baseUrl;

    const notes = [
      `black-box run: the suite started the target (${target.description}; output in ${target.logPath}) and ${chains.file.chains.length} chains`,
    ];
    let timeTravel: TimeTravel | null = null;
    if (clock) {
      const pokeUrl = `${baseUrl}${ready.kind === 'http' ? ready.path : '/'}`;
      const probe = await step(probeClock(clock, pokeUrl));
      if (probe.moved) {
        // After each move, one request lets the target wake up and run what fell due before a check looks.
        timeTravel = {
          via: 'libfaketime',
          advance: async (ms) => {
            await clock.advance(ms);
            await poke(pokeUrl);
          },
        };
        notes.push('clock: libfaketime moves the target and every chain (no control API needed for clock checks)');
      } else notes.push(`clock: ${probe.reason}; clock checks are not exercised`);
    } else notes.push('clock: not moved (--no-faketime); clock checks are not exercised');
    const suiteChains = image ? chainsFile(chains.network) : chains.file;
    return {
      baseUrl,
      timeTravel,
      chains: suiteChains,
      now: () => clock?.now() ?? Date.now(),
      notes,
      ...(target.identity ? { started: target.identity } : {}),
      teardown: () => teardown.run(),
    };
  } catch (error) {
    await teardown.run();
    if (error instanceof TargetError || error instanceof UsageError || error instanceof RunStop) throw error;
    // Chains that would not start, a target that died while its clock was probed: one sentence, exit 2.
    throw new TargetError(`the black-box target could not be set up: ${(error as Error).message.split('\n')[0]}`);
  }
}
