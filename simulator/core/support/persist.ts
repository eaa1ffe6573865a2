// Where stores report their changes when the simulator runs on a state directory (--state-dir):
// put() the record's latest value (plain JSON data) after each change. The sink does no I/O at the
// call; the HTTP edge waits for it to be on disk before answering. Absent, nothing is kept.
export interface Persist {
  put(kind: string, id: string, value: unknown): void;
  delete(kind: string, id: string): void;
}

/** The kind of settings records (control-API exchange-rate overrides, rate-limit settings), keyed by setting name. */
export const SETTING_KIND = 'setting';

/**
 * Puts one stored record back into its store as it is in the database, without reporting it again: `value` is the
 * record, `undefined` when it is gone. The durable state calls it to undo a batch the database refused (each record
 * back to its value before the batch) and to apply what another process sharing the database committed. The store
 * keeps its indexes and timers right; `remote` says the change was made by another process (work it started, such
 * as a webhook attempt, stays that process's).
 */
export type ApplyRecord = (id: string, value: unknown, origin: { remote: boolean }) => void;
