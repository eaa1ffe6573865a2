// What the composition root and the HTTP edge need of durable mode's store (sql-store/sql-durable-state.ts): the
// records at start, a sink for changes, write sessions and commits the edge awaits before it answers a write, the
// catch-up with other processes before it answers anything, and how records go back into the stores.
import type { SharedWindowCounter } from '../../core/rate-limit/index.ts';
import type { ApplyRecord, Persist } from '../../core/support/persist.ts';
import type { UndoneChanges, WriteMark, WriteTicket } from '../sql-store/sql-durable-state.ts';
import type { SqlOperationLeases } from '../sql-store/sql-operation-leases.ts';

export interface DurableState {
  /** id -> value of one kind, as read at start. */
  records(kind: string): Map<string, unknown>;
  readonly persist: Persist;
  /**
   * Resolves once every change reported so far is committed; with a request's mark (trackWrites), rejects if an undo
   * since took a record that request reported.
   */
  commit(mark?: WriteMark): Promise<void>;
  /** A write request may run once this resolves (the write lock held, caught up); endWrite after its handler. */
  beginWrite(): Promise<WriteTicket>;
  /** Resolves once the request's changes are committed; rejects when they were undone. */
  endWrite(ticket: WriteTicket): Promise<void>;
  /** Resolves once this process's changes so far are committed (a shared server database; never rejects): reads wait for it. */
  settled?(): Promise<void>;
  /** Applies what other processes committed (a shared server database); resolves at once otherwise. */
  refresh(): Promise<void>;
  /** Rate-limit counts shared with the other processes on the database, when it is shared. */
  windowCounter?(): SharedWindowCounter | undefined;
  /** Delivery leases, when several processes may send (a shared database). */
  readonly leases?:
    | {
        claim(id: string, attempt: number): Promise<boolean>;
        renewClaimed(): Promise<number>;
        expired(): Promise<string[]>;
        readonly holder: { ms: number };
      }
    | undefined;
  /**
   * Calls `listener` on the turn after every undo of changes not yet committed, with what was undone: how many
   * records, and the records another process had changed first (`kind id`; none when the database refused a batch).
   * Returns its removal.
   */
  onUndo?(listener: (undo: UndoneChanges) => void): () => void;
  /** Accepted user operations' leases, when several processes may submit and settle them (a shared database). */
  readonly operationLeases?: SqlOperationLeases | undefined;
  /** Runs a write request's handler inside its write session (inWriteSession is true within it). */
  withinWrite<T>(work: () => Promise<T>): Promise<T>;
  /** Whether the caller runs inside a write session (its changes commit with the session: no commit() of its own). */
  inWriteSession(): boolean;
  /** The sandbox's generation this process holds: another process's reset changes it (sql-sandbox-generation.ts). */
  readonly generation?: string | undefined;
  /** Resolves once a reset by another process, found in a catch-up, is followed (the simulator rebuilt). */
  afterReset?(): Promise<void>;
  /** Runs a request outside a write session, noting the records it reports (see commit). */
  trackWrites<T>(work: () => T): [T, WriteMark];
  /** How each kind of record goes back into its store (set once the stores are restored). */
  applyWith(appliers: ReadonlyMap<string, ApplyRecord>): void;
  /** Set while the store cannot take writes (the last commit failed): the edge refuses writes before they change anything. */
  readonly unavailable?: Error | undefined;
}
