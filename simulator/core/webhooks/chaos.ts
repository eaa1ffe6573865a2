// Chaos deliveries (opt-in, `--chaos-deliveries duplicate=0.1,reorder=0.1,delay=2000`): what the
// spec warns merchants about, on demand. A wrapper of the dispatcher's send (`chaosSend`), chosen by the
// composition root like the faults: without it the dispatcher has no chaos code on its path, so a plain
// simulator stays faithful and calm. Effects are counted on the delivery record (`chaos`) and named in
// the attempt's log line.
import type { DeliveryRecord } from './delivery-store.ts';
import type { PostOutcome } from './http-post.ts';

export interface ChaosSettings {
  /** Probability that an attempt is sent twice (the copy right after the original is answered, same body). */
  duplicate: number;
  /** Probability that an attempt is held back long enough for later events to overtake it. */
  reorder: number;
  /** Upper bound (real ms) of a random extra latency before every attempt; 0 = none. */
  delayMs: number;
}

export type ChaosEffect = 'duplicate' | 'reorder' | 'delay';

export interface ChaosPlan {
  /** Real milliseconds to wait before the attempt goes out. */
  holdMs: number;
  duplicate: boolean;
  effects: ChaosEffect[];
}

export type PlanChaos = () => ChaosPlan;

/** How long a reordered attempt is held back (real ms): long enough for the next events to pass it. */
export const REORDER_HOLD_MS: readonly [number, number] = [500, 2_000];

export function chaosPlanner(settings: ChaosSettings, random: () => number = Math.random): PlanChaos {
  return () => {
    const effects: ChaosEffect[] = [];
    let holdMs = 0;
    if (settings.reorder > 0 && random() < settings.reorder) {
      effects.push('reorder');
      holdMs += REORDER_HOLD_MS[0] + Math.round(random() * (REORDER_HOLD_MS[1] - REORDER_HOLD_MS[0]));
    }
    if (settings.delayMs > 0) {
      const extra = Math.round(random() * settings.delayMs);
      if (extra > 0) {
        effects.push('delay');
        holdMs += extra;
      }
    }
    const duplicate = settings.duplicate > 0 && random() < settings.duplicate;
    if (duplicate) effects.push('duplicate');
    return { holdMs, duplicate, effects };
  };
}

/** `duplicate=0.1,reorder=0.1,delay=2000`; throws RangeError naming the bad part. */
export function parseChaosSettings(spec: string): ChaosSettings {
  const settings: ChaosSettings = { duplicate: 0, reorder: 0, delayMs: 0 };
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value = ''] = part.split('=', 2).map((s) => s.trim()) as [string, string?];
    const number = Number(value);
    if (name === 'duplicate' || name === 'reorder') {
      if (value === '' || !Number.isFinite(number) || number < 0 || number > 1)
        throw new RangeError(`${name} must be a probability from 0 to 1, got "${value}"`);
      settings[name] = number;
    } else if (name === 'delay') {
      if (!/^\d+$/.test(value) || number > 9_000)
        throw new RangeError(`delay must be whole milliseconds from 0 to 9000 (below the 10 s limit), got "${value}"`);
      settings.delayMs = number;
    } else {
      throw new RangeError(`unknown chaos effect "${name}"; use duplicate=<p>, reorder=<p>, delay=<ms>`);
    }
  }
  return settings;
}

/** What one attempt's send gave: the exchange's outcome, and the chaos applied to it, if any. */
export interface SentAttempt extends PostOutcome {
  chaos?: ChaosEffect[];
}

/** One attempt on the wire: the signed request sent once and answered (the dispatcher's send). */
export type SendAttempt = (record: DeliveryRecord, number: number, instantMs: number) => Promise<SentAttempt>;

/** A wrapper of the dispatcher's send; `closing` aborts when the service closes. */
export type WrapSend = (send: SendAttempt, closing: AbortSignal) => SendAttempt;

/**
 * The send with chaos: held back first (reorder, delay) in real time, ending early when the service closes; a
 * duplicate goes out after the original's answer (its own answer changes nothing); the effects ride on the outcome.
 */
export function chaosSend(plan: PlanChaos): WrapSend {
  return (send, closing) => async (record, number, instantMs) => {
    const chaos = plan();
    if (chaos.holdMs > 0) await hold(chaos.holdMs, closing);
    const outcome = await send(record, number, instantMs);
    if (outcome.abandoned) return outcome;
    if (chaos.duplicate) await send(record, number, instantMs);
    return chaos.effects.length > 0 ? { ...outcome, chaos: chaos.effects } : outcome;
  };
}

/** A real-time wait that ends early when `signal` aborts. */
function hold(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
