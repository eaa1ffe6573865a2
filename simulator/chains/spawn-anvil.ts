// Starts one Anvil process on a free loopback port and waits until it answers JSON-RPC.
//
// On POSIX the process runs under a tiny `sh` watchdog holding the read end of a pipe from us: if this Node process
// dies without calling stop() (crash, SIGKILL, a killed test worker), the pipe closes and the watchdog kills Anvil,
// so no orphan survives us. Anvil picks its own port (`--port 0`) and prints it, so there is no port race.
import { spawn, type ChildProcess } from 'node:child_process';
import { AnvilStartError } from './errors.ts';
import { resolveAnvilBinary } from './resolve-anvil-binary.ts';

export interface SpawnAnvilParameters {
  chainId: number;
  /** 0 (default) lets Anvil choose a free port; a restart passes the previous port to keep the URL. */
  port?: number;
  /** A state file written by `anvil --dump-state` / bake-state.ts. */
  loadStatePath?: string;
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
  'echo "anvil-pid:$child"',
  '( read -r _ <&3; kill -TERM "$child" 2>/dev/null ) & watcher=$!',
  'wait "$child"; code=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$code"',
].join('\n');

export type SpawnAnvilReturnType = AnvilProcess;

export async function spawnAnvil(params: SpawnAnvilParameters): Promise<SpawnAnvilReturnType> {
  const binary = resolveAnvilBinary();
  const args = [
    '--host', '127.0.0.1',
    '--port', String(params.port ?? 0),
    '--chain-id', String(params.chainId),
    '--accounts', '0',
    '--base-fee', '0',
    '--no-priority-fee',
    '--threads', '1',
    ...(params.loadStatePath ? ['--load-state', params.loadStatePath] : []),
    ...(params.genesisTimestamp !== undefined ? ['--timestamp', String(params.genesisTimestamp)] : []),
  ];
  const useWatchdog = process.platform !== 'win32';
  const child: ChildProcess = useWatchdog
    ? spawn('/bin/sh', ['-c', WATCHDOG, 'anvil', binary, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });

  // The last few KB Anvil printed (it logs every RPC method), kept for crash and start-up reports.
  let tail = '';
  let running = true;
  const exited = new Promise<AnvilExit>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    });
  });
  const remember = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  };
  child.stderr?.on('data', remember);

  const startTimeoutMs = params.startTimeoutMs ?? 15_000;
  const ready = new Promise<{ pid: number; port: number }>((resolve, reject) => {
    let buffer: string | null = '';
    let pid = useWatchdog ? 0 : (child.pid ?? 0);
    const timer = setTimeout(() => reject(new Error(`no "Listening on" line within ${startTimeoutMs} ms`)), startTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      remember(chunk);
      if (buffer === null) return;
      buffer += chunk.toString('utf8');
      const pidMatch = /anvil-pid:(\d+)/.exec(buffer);
      if (pidMatch) pid = Number(pidMatch[1]);
      const listen = /Listening on [\d.]+:(\d+)/.exec(buffer);
      if (listen && pid) {
        clearTimeout(timer);
        buffer = null; // started: stop parsing, only keep the tail
        resolve({ pid, port: Number(listen[1]) });
        return;
      }
      if (buffer.length > 64_000) buffer = buffer.slice(-4_000);
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`exited early (code ${e.code}, signal ${e.signal})`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });

  let started: { pid: number; port: number };
  try {
    started = await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw new AnvilStartError(params.chainId, (error as Error).message, tail);
  }

  const rpcUrl = `http://127.0.0.1:${started.port}`;
  const processHandle: AnvilProcess = {
    chainId: params.chainId,
    pid: started.pid,
    supervisorPid: child.pid ?? started.pid,
    port: started.port,
    rpcUrl,
    exited,
    get running() {
      return running;
    },
    outputTail: () => tail.trim(),
    async stop(timeoutMs = 5_000) {
      if (!running) return exited;
      signal(started.pid, 'SIGTERM');
      child.stdin?.end();
      const timer = setTimeout(() => {
        signal(started.pid, 'SIGKILL');
        child.kill('SIGKILL');
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
      const res = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      const body = (await res.json()) as { result?: string };
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
