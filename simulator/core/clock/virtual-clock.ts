// The simulator's single source of time: now = wall time + offset. Expiry and webhook retries
// are timers on this clock, so advancing it by hours fires them in order within milliseconds.

export type TimerTask<T = undefined> = (arg: T) => void | Promise<void>;

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

/** A scheduled task; it is its own handle (one object per timer, as a clock may hold one per payment). */
class Timer implements TimerHandle {
  cancelled = false;

  constructor(
    readonly id: number,
    readonly dueAt: number,
    readonly seq: number,
    readonly task: TimerTask<unknown>,
    /** What the task is called with. */
    readonly arg: unknown,
    private readonly heap: TimerHeap,
  ) {}

  cancel(): void {
    this.heap.cancel(this);
  }
}

export interface VirtualClockOptions {
  /** Wall clock source; replaceable in unit tests. */
  wallNow?: () => number;
  /** Start offset in milliseconds. */
  offsetMs?: number;
}

/** (dueAt, seq) order: earlier due first, then scheduling order. */
function before(a: Timer, b: Timer): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}

/**
 * Binary min-heap of timers with lazy cancellation: a cancelled timer stays in the array until it
 * reaches the top (or a compaction), so schedule, cancel and "next due" cost O(log n), not O(n).
 */
class TimerHeap {
  private items: Timer[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(timer: Timer): void {
    this.items.push(timer);
    this.live += 1;
    this.up(this.items.length - 1);
  }

  /** Mark cancelled; the heap drops it lazily. */
  cancel(timer: Timer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    this.live -= 1;
    if (this.items.length > 64 && this.items.length > 2 * this.live) this.compact();
  }

  peek(): Timer | undefined {
    this.dropCancelledTop();
    return this.items[0];
  }

  pop(): Timer | undefined {
    this.dropCancelledTop();
    const top = this.items[0];
    if (!top) return undefined;
    this.removeTop();
    this.live -= 1;
    top.cancelled = true; // fired: a later cancel() of its handle is a no-op
    return top;
  }

  private dropCancelledTop(): void {
    while (this.items.length > 0 && (this.items[0] as Timer).cancelled) this.removeTop();
  }

  private removeTop(): void {
    const last = this.items.pop() as Timer;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.down(0);
    }
  }

  private compact(): void {
    this.items = this.items.filter((t) => !t.cancelled);
    for (let i = (this.items.length >>> 1) - 1; i >= 0; i -= 1) this.down(i);
  }

  private up(index: number): void {
    const items = this.items;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!before(items[i] as Timer, items[parent] as Timer)) break;
      [items[i], items[parent]] = [items[parent] as Timer, items[i] as Timer];
      i = parent;
    }
  }

  private down(index: number): void {
    const items = this.items;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && before(items[left] as Timer, items[smallest] as Timer)) smallest = left;
      if (right < items.length && before(items[right] as Timer, items[smallest] as Timer)) smallest = right;
      if (smallest === i) break;
      [items[i], items[smallest]] = [items[smallest] as Timer, items[i] as Timer];
      i = smallest;
    }
  }
}

export class VirtualClock {
  private offset: number;
  private readonly wallNow: () => number;
  private readonly timers = new TimerHeap();
  private nextId = 1;
  private seq = 0;
  private readonly listeners = new Set<ClockListener>();
  private realTimer: NodeJS.Timeout | undefined;
  /** Due time the real timer is armed for (re-armed only when an earlier timer arrives). */
  private armedFor: number | undefined;
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

  /** The real time underneath (what a receiver's own clock reads), ms since the epoch. */
  wallTime(): number {
    return this.wallNow();
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

  /**
   * Schedule `task` at virtual time `dueAt` (ms), to be called with `arg`. Tasks due now or earlier run on the next
   * tick. One task shared by many timers, each with its own `arg`, spares a closure per timer (one per payment).
   */
  schedule(dueAt: number, task: TimerTask): TimerHandle;
  schedule<T>(dueAt: number, task: TimerTask<T>, arg: T): TimerHandle;
  schedule(dueAt: number, task: TimerTask<never>, arg?: unknown): TimerHandle {
    const timer = new Timer(this.nextId++, dueAt, this.seq++, task as TimerTask<unknown>, arg, this.timers);
    this.timers.push(timer);
    if (this.armedFor === undefined || dueAt < this.armedFor) this.armRealTimer();
    // Cancelling it: a real timer left armed for a cancelled one just runs an advance(0) that fires nothing.
    return timer;
  }

  pendingTimers(): number {
    return this.timers.size;
  }

  /**
   * Move virtual time forward by `ms`, firing every due timer in due order. Each timer fires with
   * the clock set to its due time, so work it starts (a webhook attempt, an expiry) is stamped at
   * the moment it was due, and timers it schedules within the window fire in the same advance.
   * Resolves once every fired task, and the work tasks tracked (chain time sync), has settled;
   * webhook attempts are not tracked, so no receiver holds an advance up.
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
      const due = this.timers.peek();
      if (!due || due.dueAt > target) break;
      const next = this.timers.pop() as Timer;
      if (next.dueAt > this.now()) this.offset = next.dueAt - this.wallNow();
      await this.notify();
      fired += 1;
      await this.track(Promise.resolve().then(() => next.task(next.arg)));
      await this.settle();
    }
    if (target > this.now()) this.offset = target - this.wallNow();
    await this.notify();
    this.armRealTimer();
    return { now: this.now(), firedTimers: fired };
  }

  private async notify(): Promise<void> {
    const now = this.now();
    for (const listener of this.listeners) await listener(now);
  }

  /** Timers also fire as real time passes (an unattended simulator still expires payments). */
  private armRealTimer(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    this.armedFor = undefined;
    const next = this.timers.peek();
    if (!next) return;
    const delay = Math.max(0, Math.min(next.dueAt - this.now(), 2 ** 31 - 1));
    this.armedFor = next.dueAt;
    this.realTimer = setTimeout(() => {
      this.realTimer = undefined;
      this.armedFor = undefined;
      void this.advance(0).catch(() => undefined);
    }, delay);
    this.realTimer.unref();
  }

  /** Stop the real-time timer (on shutdown). Pending virtual timers stay registered. */
  dispose(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    this.armedFor = undefined;
  }
}
