// Stops a long-running command on every path a user has to ask it to: SIGINT, SIGTERM, SIGHUP, and a stop signal
// sent to the npm or npx process that started it (see watch-npm-wrapper.ts). Run directly (not by npm), there is
// no wrapper to watch: `nohup stablepay start &` keeps running when its shell exits.
import { watchNpmWrapper } from './watch-npm-wrapper.ts';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface StopOnExitRequestOptions {
  /** Stops everything the command started; the process exits 0 when it resolves, 1 when it rejects. */
  stop: () => Promise<void>;
  log: (line: string) => void;
  /** Whether npm or npx started this process (default: the environment npm sets for the scripts it runs). */
  startedByNpm?: boolean;
}

export function stopOnExitRequest(options: StopOnExitRequestOptions): void {
  let stopping = false;
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    options.log(`\n${reason}, shutting down`);
    options.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) process.once(signal, () => stop(`${signal} received`));
  const startedByNpm = options.startedByNpm ?? process.env.npm_lifecycle_event !== undefined;
  if (startedByNpm) watchNpmWrapper({ onStopRequest: stop });
}
