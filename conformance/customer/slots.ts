// At most `limit` payments in flight at once (browser contexts of the one Chromium).

/** Runs at most `limit` tasks at once; `rejectWaiting` drops the queued ones. */
export class Slots {
  private active = 0;
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  constructor(private readonly limit: number) {}
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.resolve();
    };
  }
  rejectWaiting(error: Error): void {
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }
}
