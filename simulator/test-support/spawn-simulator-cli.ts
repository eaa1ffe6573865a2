// `stablepay start` as a child process, the way the tests that need a real process (a heap limit, a directory made
// read-only under it, a SIGKILL) start it: no chains, any free port, quiet, no demo payment, one known key, the rate
// limit out of reach, and none of the STABLEPAY_* variables of the caller's environment that would change the store.
// Resolves once the banner is printed; a child that exits first, or prints nothing in time, is one error with its output.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));
/** The banner's last line: once printed the server listens. */
const READY = /Configure a webhook endpoint/;

/** Node's arguments for `stablepay start` as described above, with `extra` flags after them. */
export const simulatorCliArgs = (apiKey: string, extra: readonly string[] = []): string[] => [
  BIN,
  'start',
  '--no-chains',
  '--port',
  '0',
  '--quiet',
  '--no-demo-payment',
  '--rate-limit',
  '100000000',
  '--api-key',
  apiKey,
  ...extra,
];

/** The caller's STABLEPAY_* variables that would change the store or the key, cleared. */
export const CLEARED_STORE_ENV: Readonly<NodeJS.ProcessEnv> = {
  STABLEPAY_API_KEY: '',
  STABLEPAY_STATE_DIR: '',
  STABLEPAY_DATABASE_URL: '',
  STABLEPAY_MAX_PAYMENTS: '',
  STABLEPAY_MAX_STORED_MB: '',
};

export interface SimulatorCliOptions {
  apiKey: string;
  /** More `stablepay start` flags (`--state-dir`, `--max-stored-mb` …). */
  args?: string[];
  /** Flags for node itself (`--max-old-space-size=48`). */
  nodeArgs?: string[];
  /** A command that runs node (`setpriv … --`). */
  prefix?: string[];
  /** Variables over the cleared environment. */
  env?: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
}

export interface SimulatorCli {
  base: string;
  child: ChildProcess;
  output(): string;
  /** The exit code once exited (null: killed by a signal), undefined while running. */
  exitCode(): number | null | undefined;
  /** SIGTERM and waits for the exit. */
  stop(): Promise<void>;
}

export async function spawnSimulatorCli(options: SimulatorCliOptions): Promise<SimulatorCli> {
  const [command, ...prefix] = [...(options.prefix ?? []), process.execPath];
  const args = [...prefix, ...(options.nodeArgs ?? []), ...simulatorCliArgs(options.apiKey, options.args)];
  const child = spawn(command!, args, {
    env: { ...process.env, ...CLEARED_STORE_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const timeoutMs = options.startTimeoutMs ?? 180_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stablepay start printed no banner within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (READY.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`stablepay start exited (code ${exitCode}) before its banner:\n${output}`));
    });
  });
  const base = /Base URL\s+(\S+)/.exec(output)?.[1];
  if (!base) throw new Error(`no base URL in the banner:\n${output}`);
  return {
    base,
    child,
    output: () => output,
    exitCode: () => exitCode,
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      await exited;
    },
  };
}
