// What the network reports about its chains' processes. A crash is never silent: `chain-exited` always fires, then
// either `chain-restarted` or `chain-failed`.
import { EventEmitter } from 'node:events';

export interface ChainExitedEvent {
  chainId: number;
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Last lines Anvil printed. */
  output: string;
}

export interface ChainRestartedEvent {
  chainId: number;
  pid: number;
  rpcUrl: string;
  /** `checkpoint`: the state as of the last write we saw settle; `baked`: the initial state (nothing was written yet). */
  restoredFrom: 'checkpoint' | 'baked';
  /** True when a write happened after the last checkpoint, i.e. it may be missing from the restored chain. */
  mayHaveLostWrites: boolean;
}

export interface ChainFailedEvent {
  chainId: number;
  error: Error;
}

export interface ChainEventMap {
  'chain-exited': [ChainExitedEvent];
  'chain-restarted': [ChainRestartedEvent];
  'chain-failed': [ChainFailedEvent];
}

export type ChainEvents = EventEmitter<ChainEventMap>;

export const createChainEvents = (): ChainEvents => new EventEmitter<ChainEventMap>();

export interface ChainLogger {
  info?(message: string, data?: unknown): void;
  warn?(message: string, data?: unknown): void;
  error?(message: string, data?: unknown): void;
}
