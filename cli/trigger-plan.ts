// Which control-API steps take a payment (or payout) from the state it is in to the state that
// emits the asked-for event: the same routes the customer, the chains and the clock use, never a
// write of state. A state that cannot reach the event is a refusal with the reason in one line.

export const PAYMENT_TRIGGER_EVENTS = [
  'payment.created',
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
] as const;
export const PAYOUT_TRIGGER_EVENTS = [
  'payout.created',
  'payout.processing',
  'payout.completed',
  'payout.failed',
  'payout.expired',
  'payout.cancelled',
] as const;
export const TRIGGER_EVENTS = [...PAYMENT_TRIGGER_EVENTS, ...PAYOUT_TRIGGER_EVENTS, 'test'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** One step: a customer or chain action on the subject, the clock moved past its expiry, or a merchant cancel. */
export type TriggerStep = 'submit' | 'confirm' | 'fail' | 'expire' | 'cancel';

export type TriggerPlan = { ok: true; steps: TriggerStep[] } | { ok: false; reason: string };

/** Lifecycle states shared by payments and payouts (spec §4; payouts mirror it). */
const PATHS: Record<string, Partial<Record<string, TriggerStep[]>>> = {
  processing: { ACTIVE: ['submit'] },
  completed: { ACTIVE: ['submit', 'confirm'], PROCESSING: ['confirm'] },
  failed: { ACTIVE: ['submit', 'fail'], PROCESSING: ['fail'] },
  expired: { ACTIVE: ['expire'] },
  cancelled: { ACTIVE: ['cancel'] },
};

const NEEDS: Record<string, string> = {
  processing: 'an ACTIVE one',
  completed: 'an ACTIVE or PROCESSING one',
  failed: 'an ACTIVE or PROCESSING one',
  expired: 'an ACTIVE one (PROCESSING never expires)',
  cancelled: 'an ACTIVE one',
};

/** Steps from `status` to the event, for a payment or payout named `subject` (e.g. "payment 3f0c..."). */
export function planTrigger(event: TriggerEvent, subject: string, status: string): TriggerPlan {
  const outcome = event.split('.')[1] ?? '';
  if (outcome === 'created') return { ok: false, reason: `${event} is emitted only when one is created: leave out --payment/--payout` };
  const steps = PATHS[outcome]?.[status];
  if (!steps) return { ok: false, reason: `${subject} is ${status}: ${event} needs ${NEEDS[outcome] ?? 'another state'}` };
  return { ok: true, steps };
}

export function isTriggerEvent(value: string): value is TriggerEvent {
  return (TRIGGER_EVENTS as readonly string[]).includes(value);
}
