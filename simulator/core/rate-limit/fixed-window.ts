// Fixed-window counters on the virtual clock: windows are aligned to multiples of the window
// length, so advancing the clock past a boundary starts a fresh window.
import { SETTING_KIND, type Persist } from '../support/persist.ts';

export interface RateLimitSettings {
  limit: number;
  windowSeconds: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { limit: 6000, windowSeconds: 60 };

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfter: number;
}

interface Counter {
  windowStart: number;
  count: number;
}

const PRUNE_THRESHOLD = 10_000;

export class FixedWindowLimiter {
  private settings: RateLimitSettings;
  private readonly counters = new Map<string, Counter>();

  constructor(settings: RateLimitSettings = DEFAULT_RATE_LIMIT) {
    this.settings = validateSettings(settings);
  }

  get current(): RateLimitSettings {
    return { ...this.settings };
  }

  /** Durable mode: set after start-up; from then on a change of settings is reported (counters are not kept). */
  persist: Persist | undefined;

  /** Change the limit and window; every counter starts afresh. */
  configure(settings: RateLimitSettings): void {
    this.settings = validateSettings(settings);
    this.counters.clear();
    this.persist?.put(SETTING_KIND, 'rate-limit', { ...this.settings });
  }

  /** Durable mode: settings as the database has them, not reported again. */
  applySettings(settings: RateLimitSettings): void {
    const persist = this.persist;
    this.persist = undefined;
    try {
      this.configure(settings);
    } finally {
      this.persist = persist;
    }
  }

  /** Whether a hit for `key` at `nowMs` would be within the limit; counts nothing. */
  allows(key: string, nowMs: number): boolean {
    const windowMs = this.settings.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const counter = this.counters.get(key);
    const count = counter && counter.windowStart === windowStart ? counter.count : 0;
    return count < this.settings.limit;
  }

  /**
   * Where counts are kept when several processes share one limit (durable mode on a shared database); absent, this
   * process's own counters.
   */
  shared: SharedWindowCounter | undefined;

  /** Count one request for `key` at `nowMs` and say whether it is within the limit. */
  hit(key: string, nowMs: number): RateLimitDecision {
    const windowStart = this.windowStartOf(nowMs);
    let counter = this.counters.get(key);
    if (!counter || counter.windowStart !== windowStart) {
      if (this.counters.size >= PRUNE_THRESHOLD) this.prune(windowStart);
      counter = { windowStart, count: 0 };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    return this.decision(counter.count, windowStart, nowMs);
  }

  /**
   * hit() on the shared counters: one increment where every process counts. A counter store that fails counts here
   * instead (the limit still holds per process) rather than failing the request.
   */
  async hitShared(key: string, nowMs: number): Promise<RateLimitDecision> {
    if (!this.shared) return this.hit(key, nowMs);
    const windowStart = this.windowStartOf(nowMs);
    const { limit, windowSeconds } = this.settings;
    // The settings are part of the counter's name: a change of settings starts every counter afresh, as configure() does.
    const count = await this.shared.increment(`${key}|${limit}/${windowSeconds}`, windowStart).catch(() => undefined);
    return count === undefined ? this.hit(key, nowMs) : this.decision(count, windowStart, nowMs);
  }

  private windowStartOf(nowMs: number): number {
    const windowMs = this.settings.windowSeconds * 1000;
    return Math.floor(nowMs / windowMs) * windowMs;
  }

  private decision(count: number, windowStart: number, nowMs: number): RateLimitDecision {
    const windowEnd = windowStart + this.settings.windowSeconds * 1000;
    const { limit } = this.settings;
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: Math.ceil(windowEnd / 1000),
      retryAfter: Math.max(1, Math.ceil((windowEnd - nowMs) / 1000)),
    };
  }

  private prune(currentWindowStart: number): void {
    for (const [key, counter] of this.counters) if (counter.windowStart < currentWindowStart) this.counters.delete(key);
  }
}

/** Counts shared by several processes: adds one to `key`'s count in the window and returns the new count. */
export interface SharedWindowCounter {
  increment(key: string, windowStart: number): Promise<number>;
}

export function rateLimitSettingsProblem(limit: unknown, windowSeconds: unknown): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1e9) {
    problems.push({ path: ['limit'], message: 'limit must be an integer from 1 to 1000000000' });
  }
  if (typeof windowSeconds !== 'number' || !Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 86_400) {
    problems.push({ path: ['windowSeconds'], message: 'windowSeconds must be an integer from 1 to 86400' });
  }
  return problems;
}

function validateSettings(settings: RateLimitSettings): RateLimitSettings {
  const problems = rateLimitSettingsProblem(settings.limit, settings.windowSeconds);
  if (problems.length > 0) throw new RangeError(problems.map((p) => p.message).join('; '));
  return { limit: settings.limit, windowSeconds: settings.windowSeconds };
}
