// The simulator's single source of time: now = wall time + offset. Expiry and webhook retries
// are timers on this clock, so advancing it by hours fires them in order within milliseconds.

export type TimerTask = () => void | Promise<void>;

export interface TimerHandle {
  readonly id: number;
  readonly dueAt: number;
  cancel(): void;
}

export interface AdvanceResult {
  now: number;
  firedTimers: number;
}

/** Called after every move of the clock (e.g. to move the chains' block time). */
export type ClockListener = (nowMs: number) => void | Promise<void>;

interface Timer {
  id: number;
  dueAt: number;
  seq: number;
  task: TimerTask;
  cancelled: boolean;
}

export interface VirtualClockOptions {
  /** Wall clock source; replaceable in unit tests. */
  wallNow?: () => number;
  /** Start offset in milliseconds. */
  offsetMs?: number;
}

export class VirtualClock {
  private offset: number;
  private readonly wallNow: () => number;
  private timers: Timer[] = [];
  private nextId = 1;
  private seq = 0;
  private readonly listeners = new Set<ClockListener>();
  private realTimer: NodeJS.Timeout | undefined;
  /** Serialises advances so concurrent callers see timers fire exactly once, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(options: VirtualClockOptions = {}) {
    this.wallNow = options.wallNow ?? Date.now;
    this.offset = options.offsetMs ?? 0;
  }

  now(): number {
    return this.wallNow() + this.offset;
  }

  nowDate(): Date {
    return new Date(this.now());
  }

  /** ISO 8601 UTC with milliseconds and a trailing Z, as every response shows. */
  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  get offsetMs(): number {
    return this.offset;
  }

  onAdvance(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Schedule `task` at virtual time `dueAt` (ms). Tasks due now or earlier run on the next tick. */
  schedule(dueAt: number, task: TimerTask): TimerHandle {
    const timer: Timer = { id: this.nextId++, dueAt, seq: this.seq++, task, cancelled: false };
    this.timers.push(timer);
    this.armRealTimer();
    return {
      id: timer.id,
      dueAt,
      cancel: () => {
        timer.cancelled = true;
        this.timers = this.timers.filter((t) => t !== timer);
        this.armRealTimer();
      },
    };
  }

  pendingTimers(): number {
    return this.timers.length;
  }

  /**
   * Move virtual time forward by `ms`, firing every due timer in due order. Each timer fires with
   * the clock set to its due time, so work it starts (a webhook attempt, an expiry) is stamped at
   * the moment it was due, and timers it schedules within the window fire in the same advance.
   * Resolves once every fired task, and all work started by tasks, has settled.
   */
  advance(ms: number): Promise<AdvanceResult> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance expects ms >= 0, got ${ms}`);
    const run = this.queue.then(() => this.advanceTo(this.now() + ms));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Move virtual time forward to `targetMs` (never backwards). */
  setTime(targetMs: number): Promise<AdvanceResult> {
    const run = this.queue.then(() => {
      if (targetMs < this.now()) throw new RangeError('the virtual clock only moves forward');
      return this.advanceTo(targetMs);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Track work that must finish before an advance answers (e.g. a delivery started by a request). */
  track<T>(work: Promise<T>): Promise<T> {
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work)).catch(() => undefined);
    return work;
  }

  /** Wait for every tracked piece of work (including work started by fired timers). */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) {
      await Promise.allSettled([...this.inflight]);
    }
  }

  private async advanceTo(target: number): Promise<AdvanceResult> {
    let fired = 0;
    await this.settle();
    for (;;) {
      const next = this.nextDue();
      if (!next || next.dueAt > target) break;
      this.timers = this.timers.filter((t) => t !== next);
      if (next.dueAt > this.now()) this.offset = next.dueAt - this.wallNow();
      await this.notify();
      fired += 1;
      await this.track(Promise.resolve().then(next.task));
      await this.settle();
    }
    if (target > this.now()) this.offset = target - this.wallNow();
    await this.notify();
    this.armRealTimer();
    return { now: this.now(), firedTimers: fired };
  }

  private nextDue(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (t.cancelled) continue;
      if (!best || t.dueAt < best.dueAt || (t.dueAt === best.dueAt && t.seq < best.seq)) best = t;
    }
    return best;
  }

  private async notify(): Promise<void> {
    const now = this.now();
    for (const listener of this.listeners) await listener(now);
  }

  /** Timers also fire as real time passes (an unattended simulator still expires payments). */
  private armRealTimer(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    const next = this.nextDue();
    if (!next) return;
    const delay = Math.max(0, Math.min(next.dueAt - this.now(), 2 ** 31 - 1));
    this.realTimer = setTimeout(() => {
      this.realTimer = undefined;
      void this.advance(0).catch(() => undefined);
    }, delay);
    this.realTimer.unref();
  }

  /** Stop the real-time timer (on shutdown). Pending virtual timers stay registered. */
  dispose(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
  }
}
