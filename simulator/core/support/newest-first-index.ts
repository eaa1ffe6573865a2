// An ordered index of record ids, newest first (time desc, then id desc), for cursor pagination.
// The order is total and a cursor names a position, so a walk never sees a record twice and sees
// every record that existed when it started, even while new ones are inserted.

/** One id at its time; entries are never changed once made, so several indexes may share one. */
export interface IndexEntry {
  readonly at: number;
  readonly id: string;
}

type Entry = IndexEntry;

/** Storage order is oldest first (time asc, then id asc): the usual insert is an append. */
function compare(a: Entry, b: Entry): number {
  if (a.at !== b.at) return a.at - b.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface IndexPage {
  ids: string[];
  hasMore: boolean;
}

/**
 * The ordered entries alone, without a lookup by id: for an owner that already maps its ids (the payment store),
 * which knows each entry's time, keeps ids unique and passes the same entry to several indexes.
 */
export class NewestFirstEntries {
  private readonly entries: Entry[] = [];
  /** Bumped by every insert or removal that moves existing entries (an append moves none). */
  private shifts = 0;

  get size(): number {
    return this.entries.length;
  }

  /** Adds the entry; its id must not be in the index already (the owner's to ensure). */
  add(entry: IndexEntry): void {
    const last = this.entries[this.entries.length - 1];
    if (!last || compare(last, entry) < 0) this.entries.push(entry);
    else {
      this.entries.splice(this.positionOf(entry), 0, entry);
      this.shifts += 1;
    }
  }

  /** Removes the entry with this id and time, if present. */
  delete(entry: IndexEntry): void {
    const position = this.positionOf(entry);
    const found = this.entries[position];
    if (!found || found.id !== entry.id) return;
    this.entries.splice(position, 1);
    this.shifts += 1;
  }

  /** Ids after the position `after` (exclusive; it need not be in the index) that pass `accept`, at most `limit`. */
  pageAfter(options: { after?: { at: number; id: string }; limit: number; accept?: (id: string) => boolean }): IndexPage {
    const start = options.after === undefined ? this.entries.length - 1 : this.positionOf(options.after) - 1;
    const ids: string[] = [];
    for (let i = start; i >= 0; i -= 1) {
      const { id } = this.entries[i] as Entry;
      if (options.accept && !options.accept(id)) continue;
      if (ids.length === options.limit) return { ids, hasMore: true };
      ids.push(id);
    }
    return { ids, hasMore: false };
  }

  /** Every id, newest first. */
  ids(): IterableIterator<string> {
    return this.walkDown(Infinity, -Infinity);
  }

  /** Ids whose time is within [from, to], newest first: a binary search, then only those. */
  idsBetween(from: number, to: number): IterableIterator<string> {
    return this.walkDown(to, from);
  }

  /**
   * Ids with a time within [from, to], newest first, found when the walk starts (the first read),
   * not when it is asked for. A lazy reader (a streamed export) may resume after inserts or
   * removals: when the entries have shifted it finds its place again after the last id it gave, so
   * it never gives an id twice nor skips one that stayed.
   */
  private *walkDown(to: number, from: number): IterableIterator<string> {
    let seen = this.shifts;
    let last: Entry | undefined;
    const start = to === Infinity ? this.entries.length - 1 : this.positionOf({ at: to, id: '\uffff' }) - 1;
    for (let i = start; i >= 0; i -= 1) {
      if (this.shifts !== seen && last) {
        i = this.positionOf(last) - 1;
        seen = this.shifts;
        if (i < 0) return;
      }
      const entry = this.entries[i] as Entry;
      if (entry.at < from) return;
      last = entry;
      yield entry.id;
    }
  }

  /** Index of `entry` if present, else where it would be inserted (binary search). */
  private positionOf(entry: Entry): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.entries[mid] as Entry, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Entries with a lookup by id: duplicate ids refused, removal and cursors by id alone. */
export class NewestFirstIndex extends NewestFirstEntries {
  private readonly byId = new Map<string, Entry>();

  has(id: string): boolean {
    return this.byId.has(id);
  }

  insert(id: string, at: number): void {
    if (this.byId.has(id)) throw new Error(`duplicate id ${id}`);
    const entry = { at, id };
    this.add(entry);
    this.byId.set(id, entry);
  }

  remove(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.delete(entry);
    this.byId.delete(id);
  }

  /**
   * Ids after the cursor (exclusive) that pass `accept`, at most `limit`. The cursor is an id of this
   * index, or a position (`after`) that need not be in it (a secondary index paging after a record
   * that left it). Unknown cursor id: undefined.
   */
  page(options: {
    cursor?: string | undefined;
    after?: { at: number; id: string };
    limit: number;
    accept?: (id: string) => boolean;
  }): IndexPage | undefined {
    if (options.after === undefined && options.cursor !== undefined) {
      const entry = this.byId.get(options.cursor);
      if (!entry) return undefined;
      return this.pageAfter({ after: entry, limit: options.limit, ...(options.accept ? { accept: options.accept } : {}) });
    }
    return this.pageAfter(options);
  }
}
