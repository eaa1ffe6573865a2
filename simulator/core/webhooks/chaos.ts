// Chaos deliveries (opt-in, `--chaos-deliveries duplicate=0.1,reorder=0.1,delay=2000`): what the
// spec warns merchants about, on demand. The dispatcher asks the plan before each attempt; the
// default is no plan at all, so a plain simulator stays faithful and calm. Effects are counted on
// the delivery record (`chaos`) and named in the attempt's log line.

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
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value = ''] = part.split('=', 2).map((s) => s.trim()) as [string, string?];
    const number = Number(value);
    if (name === 'duplicate' || name === 'reorder') {
      if (value === '' || !Number.isFinite(number) || number < 0 || number > 1) throw new RangeError(`${name} must be a probability from 0 to 1, got "${value}"`);
      settings[name] = number;
    } else if (name === 'delay') {
      if (!/^\d+$/.test(value) || number > 9_000) throw new RangeError(`delay must be whole milliseconds from 0 to 9000 (below the 10 s limit), got "${value}"`);
      settings.delayMs = number;
    } else {
      throw new RangeError(`unknown chaos effect "${name}"; use duplicate=<p>, reorder=<p>, delay=<ms>`);
    }
  }
  return settings;
}
