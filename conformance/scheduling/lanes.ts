// Spare target instances ("lanes") of a black-box run, handed to the checks that would otherwise hold the main one
// alone (resources.ts, `lane`). The scheduler never runs more such checks at once than there are lanes, so a free one
// is always there when a check asks; the lowest-numbered free lane is taken, so a run with one lane is the same run
// every time. A lane is reused by the next check: what a check leaves on it (a moved clock, payments, a spent
// rate-limit window, an endpoint it restored) is what it would have left on the main instance for the checks after
// it in a run one check at a time, which every check already copes with (verdicts.test.ts compares the two).

export interface Lane<World> {
  /** 1 for the first spare instance (the main one is 0 and is no lane). */
  readonly number: number;
  readonly world: World;
}

export class LanePool<World> {
  private readonly free: Lane<World>[];
  private readonly waiting: ((lane: Lane<World>) => void)[] = [];

  constructor(worlds: readonly World[]) {
    this.free = worlds.map((world, index) => ({ number: index + 1, world }));
  }

  get size(): number {
    return this.free.length + this.taken;
  }

  private taken = 0;

  /** The lowest-numbered free lane; waits for one when all are taken (the scheduler avoids that). */
  acquire(): Promise<Lane<World>> {
    this.free.sort((a, b) => a.number - b.number);
    const lane = this.free.shift();
    if (lane) {
      this.taken++;
      return Promise.resolve(lane);
    }
    return new Promise((resolve) => this.waiting.push(resolve)).then((handed) => {
      this.taken++;
      return handed as Lane<World>;
    });
  }

  release(lane: Lane<World>): void {
    this.taken--;
    const next = this.waiting.shift();
    if (next) next(lane);
    else this.free.push(lane);
  }
}
