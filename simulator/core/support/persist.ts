// Where stores report their changes when the simulator runs on a state directory (--state-dir):
// put() the record's latest value (plain JSON data) after each change. The sink does no I/O at the
// call; the HTTP edge waits for it to be on disk before answering. Absent, nothing is kept.
export interface Persist {
  put(kind: string, id: string, value: unknown): void;
  delete(kind: string, id: string): void;
}

/** The kind of settings records (control-API exchange-rate overrides, rate-limit settings), keyed by setting name. */
export const SETTING_KIND = 'setting';
