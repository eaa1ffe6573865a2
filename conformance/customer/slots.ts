// At most `limit` payments in flight at once (browser contexts of the one Chromium).

/** Runs at most `limit` tasks at once; `rejectWaiting` drops the queued ones (of one owner, or all). */
export class Slots {
  private active = 0;
  private readonly waiting: { owner: string; resolve: () => void; reject: (error: Error) => void }[] = [];
  constructor(private readonly limit: number) {}
  /** `owner`: the check that waits (its queued payments are dropped when it ends, nobody else's). */
  async acquire(owner = ''): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve, reject) => this.waiting.push({ owner, resolve, reject }));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.resolve();
    };
  }
  /** Drops the queued tasks of `owner` (all of them when none is named). */
  rejectWaiting(error: Error, owner?: string): void {
    const dropped = this.waiting.filter((waiter) => owner === undefined || waiter.owner === owner);
    for (const waiter of dropped) this.waiting.splice(this.waiting.indexOf(waiter), 1);
    for (const waiter of dropped) waiter.reject(error);
  }
}
