// One target instance's chains held alone by one check while it stops a chain's mining (support/customer-path.ts,
// holdProcessing holds a payment PROCESSING that way). The hold waits until no other check has a page of the instance
// open or opening (a page's wallet is funded by transactions on the chains), and until it is released the pages other
// checks open wait. So no other check's payment or funding waits on a chain that does not mine, and the holding check
// needs no more browser slots than the pages it uses at once (it used to claim every slot of the run for that).

interface Held {
  owner: string;
  /** Holds of that owner still open (a check may hold twice, e.g. lifecycle.state-fields). */
  count: number;
  freed: Promise<void>;
  free: () => void;
}

export class ChainsHold {
  private held: Held | undefined;
  /** Pages still opening, by check. */
  private readonly opening = new Map<object, string>();
  private waiters: (() => void)[] = [];

  /** `sessionOwners`: the checks of the pages open now (the agent's sessions). */
  constructor(private readonly sessionOwners: () => Iterable<string>) {}

  /** A page closed or stopped opening: a hold waiting for the other checks' pages looks again. */
  changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * Before `owner` opens a page: waits while another check holds the chains, unless `owner` already has a page open or
   * opening (the hold waits for that page, which may wait for this one: it would never end). Returns the end of the
   * opening (call it once the page is open, or could not be).
   */
  async beforeOpen(owner: string): Promise<() => void> {
    for (;;) {
      const held = this.held;
      if (!held || held.owner === owner || this.active((o) => o === owner)) break;
      await held.freed;
    }
    // Opening from here on (no await in between): a hold taken meanwhile waits for this page.
    const ticket = {};
    this.opening.set(ticket, owner);
    return () => {
      if (this.opening.delete(ticket)) this.changed();
    };
  }

  /** The chains for `owner` alone, once no other check has a page open or opening; reentrant. Returns the release. */
  async hold(owner: string): Promise<() => void> {
    for (;;) {
      const held = this.held;
      if (!held) break;
      if (held.owner === owner) {
        held.count++;
        return this.releaseOnce(held);
      }
      await held.freed;
    }
    let free!: () => void;
    const held: Held = { owner, count: 1, freed: new Promise<void>((resolve) => (free = resolve)), free };
    this.held = held;
    const release = this.releaseOnce(held);
    while (this.active((o) => o !== owner)) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return release;
  }

  /** Whether a page open or opening belongs to a check that `matches`. */
  private active(matches: (owner: string) => boolean): boolean {
    for (const owner of this.sessionOwners()) if (matches(owner)) return true;
    for (const owner of this.opening.values()) if (matches(owner)) return true;
    return false;
  }

  private releaseOnce(held: Held): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--held.count > 0) return;
      if (this.held === held) this.held = undefined;
      held.free();
    };
  }
}
