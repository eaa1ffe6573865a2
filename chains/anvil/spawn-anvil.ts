// Starts one Anvil process through @viem/anvil (`createAnvil`, given the binary from the npm platform package) on a
// free port and waits until it answers JSON-RPC with the chain id we asked for.
//
// What this thin layer adds to @viem/anvil:
// - No orphans. On POSIX the process runs under a tiny `sh` watchdog holding the read end of a pipe from us: if this
//   Node process dies without calling stop() (crash, SIGKILL, a killed test worker), the pipe closes and the watchdog
//   kills Anvil. (@viem/anvil's execa `cleanup` only covers exits Node gets to see.)
// - The real port. Anvil picks it (`--port 0`) and prints it, so there is no port race; @viem/anvil only reports the
//   port it was given.
// - Exit reporting and the tail of the output, for crash detection/restart (supervise-chain.ts) and error reports.
import { createAnvil, type CreateAnvilOptions } from '@viem/anvil';
import { AnvilStartError } from '../errors.ts';
import { postJson } from './post-json.ts';
import { resolveAnvilBinary } from './resolve-anvil-binary.ts';

export interface SpawnAnvilParameters {
  chainId: number;
  /** 0 (default) lets Anvil choose a free port; a restart passes the previous port to keep the URL. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1; 0.0.0.0 lets containers reach the chain). */
  host?: string;
  /** A state file written by `anvil --dump-state` / bake-state.ts. */
  loadStatePath?: string;
  /** Run as a fork of this JSON-RPC endpoint (real contracts at their real addresses). */
  forkUrl?: string;
  /** Genesis timestamp (only used without a state file). */
  genesisTimestamp?: number;
  startTimeoutMs?: number;
}

export interface AnvilExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AnvilProcess {
  readonly chainId: number;
  /** Pid of the anvil process itself. */
  readonly pid: number;
  /** Pid of the watchdog shell (same as pid where no watchdog is used). */
  readonly supervisorPid: number;
  readonly port: number;
  /** Loopback URL (also when listening on 0.0.0.0). */
  readonly rpcUrl: string;
  /** Resolves when the process is gone, whatever the reason. */
  readonly exited: Promise<AnvilExit>;
  readonly running: boolean;
  /** The last lines Anvil printed (for error reports). */
  outputTail(): string;
  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves when both processes are gone. */
  stop(timeoutMs?: number): Promise<AnvilExit>;
}

const WATCHDOG = [
  'exec 3<&0',
  '"$@" </dev/null & child=$!',
  'echo "anvil-pid:$child watchdog-pid:$$"',
  '( read -r _ <&3; kill -TERM "$child" 2>/dev/null ) & watcher=$!',
  'wait "$child"; code=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$code"',
].join('\n');

type ExecaParameters = Parameters<NonNullable<Extract<CreateAnvilOptions['execArgs'], (...args: never[]) => unknown>>>[0];

export type SpawnAnvilReturnType = AnvilProcess;

export async function spawnAnvil(params: SpawnAnvilParameters): Promise<SpawnAnvilReturnType> {
  const useWatchdog = process.platform !== 'win32';
  const startTimeoutMs = params.startTimeoutMs ?? 15_000;
  // Flags @viem/anvil has no option for; appended to the command line it builds.
  const extraArgs = ['--no-priority-fee', '--threads', '1'];
  const instance = createAnvil({
    anvilBinary: resolveAnvilBinary(),
    host: params.host ?? '127.0.0.1',
    port: params.port ?? 0,
    chainId: params.chainId,
    accounts: 0,
    blockBaseFeePerGas: 0,
    ...(params.loadStatePath ? { loadState: params.loadStatePath } : {}),
    ...(params.forkUrl ? { forkUrl: params.forkUrl } : {}),
    ...(params.genesisTimestamp !== undefined ? { timestamp: params.genesisTimestamp } : {}),
    startTimeout: startTimeoutMs,
    execArgs: ([file, args, options]: ExecaParameters): ExecaParameters => {
      const argv = [...((args as string[] | undefined) ?? []), ...extraArgs];
      // stdin stays a pipe we hold: its closing is the watchdog's signal that we are gone.
      return useWatchdog
        ? ['/bin/sh', ['-c', WATCHDOG, 'anvil', String(file), ...argv], { ...options, stdin: 'pipe' }]
        : [file, argv, options];
    },
  });

  // The last few KB Anvil printed (it logs every RPC method), kept for crash and start-up reports.
  let tail = '';
  let pid = 0;
  let watchdogPid = 0;
  let port = 0;
  let running = true;
  let resolveExit!: (exit: AnvilExit) => void;
  const exited = new Promise<AnvilExit>((resolve) => (resolveExit = resolve));
  instance.on('message', (message: string) => {
    tail = (tail + message).slice(-4096);
    pid ||= Number(/anvil-pid:(\d+)/.exec(message)?.[1] ?? 0);
    watchdogPid ||= Number(/watchdog-pid:(\d+)/.exec(message)?.[1] ?? 0);
    port ||= Number(/Listening on [\d.]+:(\d+)/.exec(message)?.[1] ?? 0);
  });
  instance.on('exit', (code?: number, signal?: string) => {
    running = false;
    resolveExit({ code: code ?? null, signal: (signal as NodeJS.Signals | undefined) ?? null });
  });

  try {
    await instance.start();
    if (!port) throw new Error('Anvil did not print the port it listens on');
  } catch (error) {
    signal(pid, 'SIGKILL');
    signal(watchdogPid, 'SIGKILL');
    throw new AnvilStartError(params.chainId, (error as Error).message, tail);
  }
  // The watchdog's pid line precedes "Listening"; without a watchdog (Windows) Anvil is found by its port only.
  const anvilPid = pid;

  const processHandle: AnvilProcess = {
    chainId: params.chainId,
    pid: anvilPid,
    supervisorPid: watchdogPid || anvilPid,
    port,
    rpcUrl: `http://127.0.0.1:${port}`,
    exited,
    get running() {
      return running;
    },
    outputTail: () => tail.trim(),
    async stop(timeoutMs = 5_000) {
      if (!running) return exited;
      // Anvil first: once it is gone the watchdog exits by itself. (@viem/anvil's stop() would leave a 10 s timer
      // holding the event loop open, and hangs on a process that already exited.)
      signal(anvilPid, 'SIGTERM');
      const timer = setTimeout(() => {
        signal(anvilPid, 'SIGKILL');
        signal(processHandle.supervisorPid, 'SIGKILL');
      }, timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  await waitForRpc(processHandle, startTimeoutMs);
  return processHandle;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Anvil prints "Listening" just before serving; confirm it answers and reports the chain id we asked for. */
async function waitForRpc(anvil: AnvilProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline && anvil.running) {
    try {
      const body = (await postJson(anvil.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })) as { result?: string };
      if (body.result !== undefined && Number(body.result) === anvil.chainId) return;
      lastError = `eth_chainId answered ${JSON.stringify(body)}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await anvil.stop(1_000);
  throw new AnvilStartError(anvil.chainId, `not answering JSON-RPC (${lastError || 'process exited'})`, anvil.outputTail());
}
