// What the composition root needs of a state directory: the records it held at start, a sink for
// changes, and a commit the HTTP edge awaits before it answers a write. Journal implements it.
import type { Persist } from '../../core/support/persist.ts';

export interface DurableState {
  /** id -> value of one kind, as read at start. */
  records(kind: string): Map<string, unknown>;
  readonly persist: Persist;
  /** Resolves once every change reported so far is on disk. */
  commit(): Promise<void>;
  /** Set while the store cannot take writes (the last commit failed): the edge refuses writes before they change anything. */
  readonly unavailable?: Error | undefined;
}
