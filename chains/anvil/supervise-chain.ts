// Keeps one chain's Anvil alive. Every write we make (funding, a bundle) schedules a checkpoint (anvil_dumpState,
// debounced); when the process exits unexpectedly we report it and start a new one on the same port from the last
// checkpoint (or the baked state), so RPC URLs and clients stay valid. Too many crashes in a window: the chain is
// marked failed and every later use throws ChainUnavailableError.
import { closeSync, existsSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ChainEvents, ChainLogger } from '../clients/chain-events.ts';
import { ChainUnavailableError } from '../errors.ts';
import { spawnAnvil, type AnvilExit, type AnvilProcess, type SpawnAnvilParameters } from './spawn-anvil.ts';

export interface SuperviseChainParameters {
  chainId: number;
  /** Baked state to start from (absent for a fork). */
  statePath?: string;
  /** Run as a fork of this URL; a restart forks it again on top of the last checkpoint. */
  forkUrl?: string;
  host?: string;
  events: ChainEvents;
  logger?: ChainLogger;
  /** At most this many restarts per window; then the chain is failed. 0 disables restarts. */
  maxRestarts?: number;
  restartWindowMs?: number;
  checkpointDelayMs?: number;
  /**
   * Durable mode: every checkpoint is also written here (temporary file, fsync, rename), and the chain starts
   * from this file when it exists (the baked state otherwise).
   */
  persistPath?: string;
  /** Called after a restart, before the chain is used again (e.g. to re-apply the clock). */
  onRestarted?: () => Promise<void>;
}

export type ChainStatus = 'running' | 'restarting' | 'failed' | 'stopped';

export class SupervisedChain {
  readonly chainId: number;
  private anvil: AnvilProcess | undefined;
  private state: ChainStatus = 'stopped';
  private failure: Error | undefined;
  private restarting: Promise<void> | undefined;
  private restarts: number[] = [];
  private checkpointJson: string | undefined;
  private dirty = false;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<void> = Promise.resolve();

  constructor(private readonly params: SuperviseChainParameters) {
    this.chainId = params.chainId;
  }

  get status(): ChainStatus {
    return this.state;
  }
  get pid(): number {
    return this.anvil?.pid ?? 0;
  }
  get supervisorPid(): number {
    return this.anvil?.supervisorPid ?? 0;
  }
  get rpcUrl(): string {
    if (!this.anvil) throw new ChainUnavailableError(this.chainId, 'it was never started');
    return this.anvil.rpcUrl;
  }

  async start(): Promise<void> {
    const persisted = this.params.persistPath && existsSync(this.params.persistPath) ? this.params.persistPath : undefined;
    this.attach(await spawnAnvil(this.spawnParameters(persisted ?? this.params.statePath)));
  }

  /** Resolve when the chain can take requests; throws when it is failed or stopped. */
  async ready(): Promise<void> {
    if (this.restarting) await this.restarting;
    if (this.state === 'failed') throw new ChainUnavailableError(this.chainId, this.failure?.message ?? 'it crashed');
    if (this.state === 'stopped') throw new ChainUnavailableError(this.chainId, 'the network was stopped');
  }

  /** Note that chain state changed; a checkpoint follows shortly. */
  noteWrite(): void {
    this.dirty = true;
    if (this.checkpointTimer) return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      void this.checkpoint().catch(() => undefined);
    }, this.params.checkpointDelayMs ?? 250);
    this.checkpointTimer.unref();
  }

  /** Dump the chain's state now (restarts resume from the latest checkpoint). */
  checkpoint(): Promise<void> {
    const run = this.checkpointing.then(async () => {
      if (this.state !== 'running' || !this.anvil) return;
      this.dirty = false;
      const res = await fetch(this.anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
      });
      const body = (await res.json()) as { result?: string };
      if (typeof body.result === 'string') {
        this.checkpointJson = gunzipSync(Buffer.from(body.result.slice(2), 'hex')).toString('utf8');
        if (this.params.persistPath) writeDurably(this.params.persistPath, this.checkpointJson);
      } else this.dirty = true;
    });
    this.checkpointing = run.catch(() => undefined);
    return run;
  }

  async stop(): Promise<void> {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    // Durable mode: a clean stop keeps the latest writes (a checkpoint is otherwise up to 250 ms behind).
    if (this.params.persistPath && this.dirty) await this.checkpoint().catch(() => undefined);
    const anvil = this.anvil;
    this.state = 'stopped';
    if (this.restarting) await this.restarting.catch(() => undefined);
    await (this.anvil ?? anvil)?.stop();
  }

  private spawnParameters(loadStatePath: string | undefined): SpawnAnvilParameters {
    return {
      chainId: this.chainId,
      ...(loadStatePath ? { loadStatePath } : {}),
      ...(this.params.forkUrl ? { forkUrl: this.params.forkUrl } : {}),
      ...(this.params.host ? { host: this.params.host } : {}),
    };
  }

  private attach(anvil: AnvilProcess): void {
    this.anvil = anvil;
    this.state = 'running';
    void anvil.exited.then((exit) => this.onExit(anvil, exit));
  }

  private onExit(anvil: AnvilProcess, exit: AnvilExit): void {
    if (this.state === 'stopped' || this.anvil !== anvil) return;
    const output = anvil.outputTail();
    this.params.events.emit('chain-exited', { chainId: this.chainId, pid: anvil.pid, code: exit.code, signal: exit.signal, output });
    this.params.logger?.warn?.(
      `chain ${this.chainId}: anvil (pid ${anvil.pid}) exited unexpectedly (code ${exit.code}, signal ${exit.signal})`,
    );
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < (this.params.restartWindowMs ?? 60_000));
    if (this.restarts.length >= (this.params.maxRestarts ?? 3)) {
      this.fail(new Error(`anvil exited (code ${exit.code}, signal ${exit.signal}) and the restart limit was reached`));
      return;
    }
    this.restarts.push(now);
    this.state = 'restarting';
    this.restarting = this.restart(anvil.port).finally(() => {
      this.restarting = undefined;
    });
  }

  private async restart(port: number): Promise<void> {
    const mayHaveLostWrites = this.dirty;
    const restoredFrom = this.checkpointJson ? 'checkpoint' : 'baked';
    let dir: string | undefined;
    try {
      let statePath = this.params.statePath;
      if (this.checkpointJson) {
        dir = mkdtempSync(join(tmpdir(), `stablepay-chain-${this.chainId}-`));
        statePath = join(dir, 'state.json');
        writeFileSync(statePath, this.checkpointJson);
      }
      const anvil = await spawnAnvil({ ...this.spawnParameters(statePath), port });
      if ((this.state as ChainStatus) === 'stopped') {
        await anvil.stop();
        return;
      }
      this.attach(anvil);
      await this.params.onRestarted?.();
      this.params.events.emit('chain-restarted', {
        chainId: this.chainId,
        pid: anvil.pid,
        rpcUrl: anvil.rpcUrl,
        restoredFrom,
        mayHaveLostWrites,
      });
      this.params.logger?.warn?.(`chain ${this.chainId}: restarted from the ${restoredFrom} state (pid ${anvil.pid})`);
    } catch (error) {
      this.fail(error as Error);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }

  private fail(error: Error): void {
    this.state = 'failed';
    this.failure = error;
    this.params.events.emit('chain-failed', { chainId: this.chainId, error });
    this.params.logger?.error?.(`chain ${this.chainId}: unavailable: ${error.message}`);
  }
}

/** Replaces `path` with `text` so that a crash leaves either the old file or the new one, never a torn one. */
function writeDurably(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
