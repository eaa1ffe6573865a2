// The simulator's source of time: the sandbox clock (now = wall time + offset) and, under it, one clock per merchant
// and per test clock (now = sandbox time + that clock's own offset), like Stripe's test clocks: moving a merchant's
// clock moves that merchant's world only, moving the sandbox clock moves every clock under it. Expiry and webhook
// retries are timers on the clock of the merchant they belong to, so advancing it by hours fires them in order
// within milliseconds (docs/decisions.md, "Clocks").
import { randomBytes } from 'node:crypto';
import { Timer, TimerHeap, type TimerHandle, type TimerTask } from './timer-heap.ts';

export type { TimerHandle, TimerTask } from './timer-heap.ts';

export interface AdvanceResult {
  now: number;
  firedTimers: number;
}

/** Called after every move of any clock of the tree with the furthest clock's now (e.g. to move the chains' block time). */
export type ClockListener = (furthestNowMs: number) => void | Promise<void>;

/** What reads a merchant's time needs of the clocks: the clock of a merchant (VirtualClock satisfies it). */
export interface MerchantTime {
  for(merchantId: string): Pick<VirtualClock, 'now'>;
}

export interface VirtualClockOptions {
  /** Wall clock source; replaceable in unit tests. */
  wallNow?: () => number;
  /** Start offset in milliseconds. */
  offsetMs?: number;
}

/** The offsets a restart puts back: the sandbox clock's and each merchant's or test clock's (merchants say which test clock they are on). */
export interface ClockOffsets {
  sandboxMs: number;
  clocks: Record<string, number>;
}

/** Test clocks are named `clk_` + 24 hex digits; every other clock of the tree is a merchant's, named by its id. */
export const TEST_CLOCK_PATTERN = /^clk_[0-9a-f]{24}$/;

export class VirtualClock {
  /** The clock's own offset: from wall time for the sandbox clock, from the sandbox clock for the others. */
  private offset: number;
  private readonly wallNow: () => number;
  private readonly parent: VirtualClock | undefined;
  private readonly timers = new TimerHeap();
  private realTimer: NodeJS.Timeout | undefined;
  /** Due time the real timer is armed for (re-armed only when an earlier timer arrives). */
  private armedFor: number | undefined;
  // The sandbox clock's own (the tree's) state: its clocks, who is attached to which test clock, ids, listeners.
  private readonly children = new Map<string, VirtualClock>();
  private readonly attachedTo = new Map<string, string>();
  private nextId = 1;
  private seq = 0;
  private readonly listeners = new Set<ClockListener>();
  private readonly creationListeners = new Set<(testClockId: string) => void>();
  /** Serialises advances of every clock of the tree so concurrent callers see timers fire exactly once, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(options: VirtualClockOptions = {}, parent?: VirtualClock) {
    this.parent = parent;
    this.wallNow = options.wallNow ?? parent?.wallNow ?? Date.now;
    this.offset = options.offsetMs ?? 0;
  }

  now(): number {
    return (this.parent ? this.parent.now() : this.wallNow()) + this.offset;
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

  /**
   * How far this clock is from wall time: the offsets of the tree down to it, never two readings of the wall clock
   * (they could fall in different milliseconds and show a clock at wall time 1 ms behind it).
   */
  get offsetMs(): number {
    return this.offset + (this.parent?.offsetMs ?? 0);
  }

  /** The sandbox clock at the top of the tree. */
  get sandbox(): VirtualClock {
    return this.parent ?? this;
  }

  /**
   * The clock of a merchant (its own, or the test clock it is attached to) or of a test clock, made on first use at
   * the sandbox clock's time. Asked of any clock of the tree, it answers from the sandbox clock.
   */
  for(key: string): VirtualClock {
    const sandbox = this.sandbox;
    const name = sandbox.attachedTo.get(key) ?? key;
    let clock = sandbox.children.get(name);
    if (!clock) {
      clock = new VirtualClock({}, sandbox);
      sandbox.children.set(name, clock);
    }
    return clock;
  }

  /** A new test clock at the sandbox clock's time; merchants attached to it share it. */
  createTestClock(): { id: string; clock: VirtualClock } {
    const id = `clk_${randomBytes(12).toString('hex')}`;
    const clock = this.for(id);
    for (const listener of this.sandbox.creationListeners) listener(id);
    return { id, clock };
  }

  /** Called after a test clock is made (durable mode stores the tree then: a clock never moved must survive too). */
  onTestClockCreated(listener: (testClockId: string) => void): () => void {
    const { creationListeners } = this.sandbox;
    creationListeners.add(listener);
    return () => creationListeners.delete(listener);
  }

  /** Whether a test clock of that id exists. */
  hasTestClock(id: string): boolean {
    return TEST_CLOCK_PATTERN.test(id) && this.sandbox.children.has(id);
  }

  /** From now on the merchant's time is the test clock's. */
  attach(merchantId: string, testClockId: string): void {
    this.sandbox.attachedTo.set(merchantId, testClockId);
    this.for(testClockId);
  }

  /** The merchant has a clock of its own again (at the sandbox time until it is moved). */
  detach(merchantId: string): void {
    this.sandbox.attachedTo.delete(merchantId);
  }

  /** The test clock a merchant is attached to, if any. */
  testClockOf(merchantId: string): string | undefined {
    return this.sandbox.attachedTo.get(merchantId);
  }

  /** Every offset of the tree, to be put back after a restart (offsets are relative, so virtual time goes on). */
  offsets(): ClockOffsets {
    const sandbox = this.sandbox;
    const clocks: Record<string, number> = {};
    for (const [name, clock] of sandbox.children) if (clock.offset !== 0 || TEST_CLOCK_PATTERN.test(name)) clocks[name] = clock.offset;
    return { sandboxMs: sandbox.offset, clocks };
  }

  /** Puts back offsets read at start, before any timer is set. */
  restoreOffsets(stored: ClockOffsets): void {
    const sandbox = this.sandbox;
    sandbox.offset = stored.sandboxMs;
    for (const [name, offset] of Object.entries(stored.clocks)) sandbox.for(name).offset = offset;
  }

  /** The furthest-ahead clock's now: what the chains' block time follows (docs/decisions.md, "Clocks"). */
  furthestNow(): number {
    const sandbox = this.sandbox;
    let furthest = 0;
    for (const clock of sandbox.children.values()) furthest = Math.max(furthest, clock.offset);
    return sandbox.now() + furthest;
  }

  onAdvance(listener: ClockListener): () => void {
    const { listeners } = this.sandbox;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Schedule `task` at virtual time `dueAt` (ms), to be called with `arg`. Tasks due now or earlier run on the next
   * tick. One task shared by many timers, each with its own `arg`, spares a closure per timer (one per payment).
   */
  schedule(dueAt: number, task: TimerTask): TimerHandle;
  schedule<T>(dueAt: number, task: TimerTask<T>, arg: T): TimerHandle;
  schedule(dueAt: number, task: TimerTask<never>, arg?: unknown): TimerHandle {
    const sandbox = this.sandbox;
    const timer = new Timer(sandbox.nextId++, dueAt, sandbox.seq++, task as TimerTask<unknown>, arg, this.timers);
    this.timers.push(timer);
    if (this.armedFor === undefined || dueAt < this.armedFor) this.armRealTimer();
    // Cancelling it: a real timer left armed for a cancelled one just runs an advance(0) that fires nothing.
    return timer;
  }

  /** Live timers of this clock (of the whole tree, asked of the sandbox clock). */
  pendingTimers(): number {
    if (this.parent) return this.timers.size;
    let n = this.timers.size;
    for (const clock of this.children.values()) n += clock.timers.size;
    return n;
  }

  /**
   * Move virtual time forward by `ms`, firing every due timer in due order. Each timer fires with
   * the clock set to its due time, so work it starts (a webhook attempt, an expiry) is stamped at
   * the moment it was due, and timers it schedules within the window fire in the same advance.
   * Moving the sandbox clock moves every clock under it, firing their timers in the same order.
   * Resolves once every fired task, and the work tasks tracked (chain time sync), has settled;
   * webhook attempts are not tracked, so no receiver holds an advance up.
   */
  advance(ms: number): Promise<AdvanceResult> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance expects ms >= 0, got ${ms}`);
    // The clock keeps running while due timers fire: it ends ms ahead of where it would be, not frozen at now + ms.
    return this.enqueue(() => this.advanceTo(this.now() + ms, this.offset + ms));
  }

  /** Move virtual time forward to `targetMs` (never backwards). */
  setTime(targetMs: number): Promise<AdvanceResult> {
    return this.enqueue(() => {
      if (targetMs < this.now()) throw new RangeError('the virtual clock only moves forward');
      return this.advanceTo(targetMs);
    });
  }

  /**
   * A merchant's or test clock's world starts again: its timers are dropped and it is back at the sandbox clock's
   * time (the merchant's records are gone with it, see the merchant reset). Not for the sandbox clock.
   */
  restart(): Promise<void> {
    if (!this.parent) throw new RangeError('the sandbox clock is reset with the whole simulator');
    return this.enqueue(async () => {
      this.timers.clear();
      this.offset = 0;
      this.armRealTimer();
      await this.notify();
    });
  }

  /** Track work that must finish before an advance answers (e.g. a delivery started by a request). */
  track<T>(work: Promise<T>): Promise<T> {
    const sandbox = this.sandbox;
    sandbox.inflight.add(work);
    void work.finally(() => sandbox.inflight.delete(work)).catch(() => undefined);
    return work;
  }

  /** Wait for every tracked piece of work (including work started by fired timers). */
  async settle(): Promise<void> {
    const sandbox = this.sandbox;
    while (sandbox.inflight.size > 0) {
      await Promise.allSettled([...sandbox.inflight]);
    }
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const sandbox = this.sandbox;
    const run = sandbox.queue.then(step);
    sandbox.queue = run.catch(() => undefined);
    return run;
  }

  /** The next timer to fire in the whole tree (the sandbox clock's view) or of this clock alone, with its clock. */
  private nextDue(): { clock: VirtualClock; sandboxDueAt: number } | undefined {
    const own = this.timers.peek();
    let next = own ? { clock: this as VirtualClock, sandboxDueAt: own.dueAt } : undefined;
    if (this.parent) return next;
    for (const clock of this.children.values()) {
      const top = clock.timers.peek();
      if (!top) continue;
      const sandboxDueAt = top.dueAt - clock.offset;
      if (!next || sandboxDueAt < next.sandboxDueAt) next = { clock, sandboxDueAt };
    }
    return next;
  }

  private async advanceTo(target: number, endOffset?: number): Promise<AdvanceResult> {
    let fired = 0;
    await this.settle();
    for (;;) {
      const due = this.nextDue();
      if (!due || due.sandboxDueAt > target) break;
      const next = due.clock.timers.pop() as Timer;
      if (due.sandboxDueAt > this.now()) this.offset = due.sandboxDueAt - (this.parent ? this.parent.now() : this.wallNow());
      await this.notify();
      fired += 1;
      await this.track(Promise.resolve().then(() => next.task(next.arg)));
      await this.settle();
    }
    if (target > this.now()) this.offset = target - (this.parent ? this.parent.now() : this.wallNow());
    if (endOffset !== undefined && endOffset > this.offset) this.offset = endOffset;
    await this.notify();
    this.armRealTimer();
    if (!this.parent) for (const clock of this.children.values()) clock.armRealTimer();
    return { now: this.now(), firedTimers: fired };
  }

  private async notify(): Promise<void> {
    const sandbox = this.sandbox;
    const furthest = sandbox.furthestNow();
    for (const listener of sandbox.listeners) await listener(furthest);
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

  /** Stop the real-time timers (on shutdown). Pending virtual timers stay registered. */
  dispose(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    this.armedFor = undefined;
    if (!this.parent) for (const clock of this.children.values()) clock.dispose();
  }
}
