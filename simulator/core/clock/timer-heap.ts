// The timers of one clock: a binary min-heap in (dueAt, scheduling) order with lazy cancellation.

export type TimerTask<T = undefined> = (arg: T) => void | Promise<void>;

export interface TimerHandle {
  readonly id: number;
  readonly dueAt: number;
  cancel(): void;
}

/** A scheduled task; it is its own handle (one object per timer, as a clock may hold one per payment). */
export class Timer implements TimerHandle {
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

/** (dueAt, seq) order: earlier due first, then scheduling order. */
export function before(a: Timer, b: Timer): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}

/**
 * Binary min-heap of timers with lazy cancellation: a cancelled timer stays in the array until it
 * reaches the top (or a compaction), so schedule, cancel and "next due" cost O(log n), not O(n).
 */
export class TimerHeap {
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

  /** Cancel every timer (a clock put back to the start). */
  clear(): void {
    for (const timer of this.items) timer.cancelled = true;
    this.items = [];
    this.live = 0;
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
