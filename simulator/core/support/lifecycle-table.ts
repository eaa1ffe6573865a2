// The mechanics shared by the payment and payout lifecycles: a table from (status, event type) to
// a pure handler, a refusal for every pair the table lacks, and handlers that return the next
// record plus the effects the caller must carry out. The tables themselves stay with their
// records (payments/state-machine.ts, payouts/payout-state-machine.ts); only the lookup lives here.

export type RefusalReason = 'invalid-state' | 'expired' | 'not-yet-expired' | 'pair-not-accepted' | 'pair-unsupported';

/** Why a transition was refused; it changes nothing. */
export interface Refusal {
  reason: RefusalReason;
  message: string;
}

export type Step<R, F> = { ok: true; next: R; effects: F[] } | { ok: false; refusal: Refusal };

export interface LifecycleRecord<S extends string> {
  readonly status: S;
  readonly updatedAt: number;
}

export type StepHandler<R, E, F> = (record: R, event: E, now: number) => Step<R, F>;

/** For each status, the events it accepts; a missing entry is a refusal. */
export type LifecycleTable<S extends string, R, E extends { type: string }, F> = Record<
  S,
  { [T in E['type']]?: StepHandler<R, Extract<E, { type: T }>, F> }
>;

export const refuse = (reason: RefusalReason, message: string): { ok: false; refusal: Refusal } => ({
  ok: false,
  refusal: { reason, message },
});

/** The record with `changes` applied and stamped `now`, plus the effects to carry out. */
export function move<R extends LifecycleRecord<string>, F>(record: R, changes: Partial<R>, now: number, effects: F[]): Step<R, F> {
  return { ok: true, next: { ...record, ...changes, updatedAt: now }, effects };
}

export interface Lifecycle<S extends string, R, E extends { type: string }, F> {
  /** Run `event` through the table; pure. */
  step(record: R, event: E, now: number): Step<R, F>;
  /** Whether `status` accepts `type` at all (guards inside a handler aside). */
  accepts(status: S, type: E['type']): boolean;
}

/** `noun` names the record in refusals ("Cannot apply merchant.cancelled to a SUCCESSFUL payment"). */
export function lifecycle<S extends string, R extends LifecycleRecord<S>, E extends { type: string }, F>(
  table: LifecycleTable<S, R, E, F>,
  noun: string,
): Lifecycle<S, R, E, F> {
  const handlerFor = (status: S, type: E['type']) => table[status][type] as StepHandler<R, E, F> | undefined;
  return {
    step(record, event, now) {
      const handler = handlerFor(record.status, event.type);
      return handler ? handler(record, event, now) : refuse('invalid-state', `Cannot apply ${event.type} to a ${record.status} ${noun}`);
    },
    accepts: (status, type) => handlerFor(status, type) !== undefined,
  };
}
