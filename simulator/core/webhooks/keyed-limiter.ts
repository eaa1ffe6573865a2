// Caps concurrent attempts per key (the receiver's origin). A slow or dead merchant endpoint
// then holds at most `max` sockets, and a burst of events is queued here, before the timeout
// starts, rather than inside the HTTP agent, where queueing time would count against the
// receiver's 10-second limit.

export type Release = () => void;

export class KeyedLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private closed = false;

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be an integer >= 1, got ${max}`);
  }

  /** Resolves with a release function once a slot is free (or at once after close). */
  async acquire(key: string): Promise<Release> {
    if (this.closed) return () => undefined;
    const running = this.active.get(key) ?? 0;
    if (running < this.max) {
      this.active.set(key, running + 1);
      return this.releaser(key);
    }
    let queue = this.waiting.get(key);
    if (!queue) this.waiting.set(key, (queue = []));
    const ticket = queue;
    await new Promise<void>((resolve) => ticket.push(resolve));
    return this.closed ? () => undefined : this.releaser(key);
  }

  inFlight(key: string): number {
    return this.active.get(key) ?? 0;
  }

  /** Wakes every waiter; they see the limiter closed and give up their attempt. */
  close(): void {
    this.closed = true;
    for (const queue of this.waiting.values()) for (const wake of queue.splice(0)) wake();
    this.waiting.clear();
    this.active.clear();
  }

  private releaser(key: string): Release {
    let released = false;
    return () => {
      if (released || this.closed) return;
      released = true;
      const queue = this.waiting.get(key);
      const next = queue?.shift();
      if (queue && queue.length === 0) this.waiting.delete(key);
      // Hand the slot straight to the next waiter so the count never dips and lets a newcomer jump the queue.
      if (next) return next();
      const running = (this.active.get(key) ?? 1) - 1;
      if (running > 0) this.active.set(key, running);
      else this.active.delete(key);
    };
  }
}
