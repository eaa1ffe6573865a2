// Durable mode on a database (PGlite behind --state-dir, a Postgres server behind --database-url): the stores keep
// their working set in memory and report each change to `persist`; a write is answered once what it changed is
// committed, in ONE transaction with everything else reported meanwhile (group commit) and with the webhook
// deliveries it enqueued (the outbox): an acknowledged change always has its deliveries, an unacknowledged one none.
//
// Write sessions. A write request joins the open session (or opens one) BEFORE its handler runs: the session's
// transaction takes the write lock, catches up with what other processes committed (sql-changes.ts) and only then
// lets handlers run, so every write acts on the latest state; once the last joined request has run, the session
// writes the batch and commits, releasing the lock. Several processes on one database thereby behave as one.
//
// Nothing half-applied. A batch the database refuses (down, full, read-only, a constraint) is undone in memory:
// every record it touched, and every change reported after it, goes back to its last committed value through the
// stores' "apply one record" entry (runtime/apply-records.ts), and every request whose changes went is refused
// (503/507). A change made outside a session (a timer, a webhook outcome) that another process changed first is
// undone the same way when the catch-up finds it, so the other process's committed version stands; a record both
// deleted (an expired checkout session each dropped) is no conflict.
import type { ApplyRecord, Persist } from '../../core/support/persist.ts';
import { migrate } from './schema.ts';
import { type SqlClient, type SqlQueries, sqlState } from './sql-client.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { SqlOperationLeases } from './sql-operation-leases.ts';
import { DEFAULT_DELIVERY_LEASE_MS, SqlDeliveryLeases } from './sql-delivery-leases.ts';
import { SqlWindowCounter } from './sql-shared-counter.ts';
import { type Change, type ChangedRow, changesSince, jsonText, deletedByBoth, takeWriteLock, writeChange } from './sql-changes.ts';
import {
  GENERATION_ID,
  GENERATION_KIND,
  generationOf,
  readState,
  resetDatabase,
  SandboxResetError,
  type StateSnapshot,
} from './sql-sandbox-generation.ts';

/** kind -> id -> value, as read at start. */
export type StateRecords = Map<string, Map<string, unknown>>;

/** The database refused or could not take a commit; `full` when it is out of space (answered 507, else 503). */
export class StorageUnavailableError extends Error {
  constructor(
    message: string,
    readonly full: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A write request's place in a session: handed out by beginWrite, given back to endWrite. */
export interface WriteTicket {
  readonly session: Session;
}

interface Session {
  joined: number;
  /** False once released (every joined writer has run): later writers wait for the next session. */
  accepting: boolean;
  release: () => void;
  /** Resolves once the lock is held and the catch-up applied (handlers may run). */
  opened: Promise<void>;
  /** Resolves once committed; rejects with StorageUnavailableError when the batch was refused (and undone). */
  done: Promise<void>;
}

/** Kinds whose concurrent versions are equivalent: another process's version replaces ours quietly (last use of a key). */
const LAST_WRITER_WINS: ReadonlySet<string> = new Set(['key']);
/** Applied after every other row of a catch-up: moving the clock fires timers, which must see the records first. */
const CLOCK = 'clock';
/** Webhook deliveries: a pending change that records an attempt made survives an undo (attemptMade). */
const DELIVERY_KIND = 'delivery';
/**
 * The Postgres channel a commit that moved the clock notifies (its payload: the writer's lease owner). Every other
 * process listens and catches up at once, so the timers it alone holds (the next attempt of a delivery it leases)
 * fire when the clock moved through another process, not at its next request or lease sweep.
 */
export const CLOCK_CHANNEL = 'stablepay_clock';
/** How often a database that refused a commit is probed while writes are refused (the first probe, and a server's). */
const PROBE_MS = 1000;
/** The longest wait between two reopens of an embedded database that will not open (the wait doubles from PROBE_MS). */
const MAX_REOPEN_WAIT_MS = 16_000;
/** How long a process following another's reset waits for the resetter's fresh records. */
const RESET_SETTLE_MS = 5000;
/** SQLSTATE of a full disk. */
const DISK_FULL = '53100';

const keyOf = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** A request's reports, for its commit: the undo count when it began and the records (`kind\u0000id`) it reported. */
export interface WriteMark {
  readonly undoCount: number;
  readonly reported: Set<string>;
}

/** What an undo put back (see DurableState.onUndo). */
export interface UndoneChanges {
  undone: number;
  conflicts: string[];
}

export class SqlDurableState {
  /** Reported and not yet committed, in report order. */
  private readonly pending = new Map<string, Change>();
  /** The JSON text of every record as last committed (what an undo puts back; absent: no record). */
  private readonly committed = new Map<string, string>();
  private appliers: ReadonlyMap<string, ApplyRecord> | undefined;
  private session: Session | undefined;
  /** The highest change number applied or written by this process. */
  private lastChange: number;
  /** Bumped by every undo: a request that started before one may have lost its changes. */
  private undone = 0;
  /** Told (on the next turn) after every undo: what was undone may have to be made again (operation-custody.ts). */
  /** The latest undos and what each put back, for undoneSince. */
  private readonly undoHistory: { number: number; keys: ReadonlySet<string> | 'all' }[] = [];
  private readonly undoListeners = new Set<(undo: UndoneChanges) => void>();
  /** One catch-up at a time, in order (a later one must not apply an older version after a newer one). */
  private catchUps: Promise<unknown> = Promise.resolve();
  private refreshing: Promise<void> | undefined;
  private refreshQueued: Promise<void> | undefined;
  private scheduled = false;
  private closed = false;
  /** Bumped by every reset: persist sinks taken before it report nothing. */
  private epoch = 0;
  private sandboxGeneration: string | undefined;
  /** Set while a reset by another process is being followed (records read again, the simulator rebuilt). */
  private following: Promise<void> | undefined;
  /** Set until the records are read again after another process's reset: no catch-up applies anything meanwhile. */
  private reloading = false;
  private rebuild: (() => Promise<void>) | undefined;
  /** Set while the last commit failed: writes are refused before they change anything, until a probe succeeds. */
  private failure: StorageUnavailableError | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  /** Stops listening for other processes' clock moves (a server database only). */
  private stopListening: (() => Promise<void>) | undefined;
  /** The wait before the next probe: doubles while an embedded database will not reopen, back to PROBE_MS on a commit. */
  private probeWaitMs = PROBE_MS;
  /**
   * The change number below every batch refused since the last commit: a refused COMMIT may still have reached the
   * disk, so a reopened database is read from here (see recover).
   */
  private unsureSince: number | undefined;
  /** Set while an embedded database is closed and opened afresh: commits are refused meanwhile. */
  private reopening = false;

  private constructor(
    private readonly db: SqlClient,
    private readonly live: StateRecords,
    latest: number,
    /** Where the state is kept, for messages and the banner ("the database in …/db", "the database at postgres://…"). */
    readonly where: string,
    /** Other processes may write the same database (a server): catch up before every request. */
    readonly shared: boolean,
  ) {
    this.lastChange = latest;
  }

  /** Applies the migrations and reads every record back (under the write lock: no writer is half-way). */
  static async open(db: SqlClient, where: string, options: { shared?: boolean; deliveryLeaseMs?: number } = {}): Promise<SqlDurableState> {
    await migrate(db);
    const state = new SqlDurableState(db, new Map(), 0, where, options.shared ?? false);
    state.load(await readState(db));
    if (state.shared) {
      const holder = { owner: randomUUID(), ms: options.deliveryLeaseMs ?? DEFAULT_DELIVERY_LEASE_MS };
      state.leases = new SqlDeliveryLeases(db, holder);
      state.operationLeases = new SqlOperationLeases(db, holder);
      state.stopListening = db.listen?.(CLOCK_CHANNEL, (writer) => {
        if (writer !== holder.owner) void state.refresh().catch(() => undefined);
      });
    }
    return state;
  }

  /** Takes a snapshot of the database as everything this process holds (at open, and after another process's reset). */
  private load(snapshot: StateSnapshot): void {
    this.live.clear();
    this.committed.clear();
    this.pending.clear();
    for (const [kind, rows] of snapshot.texts) {
      const into = new Map<string, unknown>();
      this.live.set(kind, into);
      for (const [id, text] of rows) {
        into.set(id, JSON.parse(text));
        this.committed.set(keyOf(kind, id), text);
      }
    }
    this.lastChange = snapshot.latest;
    this.sandboxGeneration = generationOf(snapshot.texts.get(GENERATION_KIND)?.get(GENERATION_ID));
  }

  /** Who sends each pending delivery, on a shared database (undefined: this process sends all of its own). */
  leases: SqlDeliveryLeases | undefined;
  /** Who submits and settles each accepted user operation, on a shared database (the same lease time). */
  operationLeases: SqlOperationLeases | undefined;

  /** Runs a write request's handler inside its session: code it calls can tell (inWriteSession) and not commit itself. */
  withinWrite<T>(work: () => Promise<T>): Promise<T> {
    return insideWriteSession.run(true, work);
  }

  /** True inside a write request's handler: its changes commit with the session (a commit() there would wait for itself). */
  inWriteSession(): boolean {
    return insideWriteSession.getStore() === true;
  }

  /** Rate-limit counts every process sharing the database sees (a server database only). */
  windowCounter(): SqlWindowCounter | undefined {
    return this.shared ? new SqlWindowCounter(this.db) : undefined;
  }

  /** The failure of the last commit while the database has not answered since (the edge refuses writes meanwhile). */
  get unavailable(): StorageUnavailableError | undefined {
    return this.failure;
  }

  /**
   * Runs `work` (a request outside a write session) and notes every record it reports, even after an await: its
   * commit(mark) is refused only when an undo since took one of them, not for an undo of others' changes.
   */
  trackWrites<T>(work: () => T): [T, WriteMark] {
    const mark: WriteMark = { undoCount: this.undone, reported: new Set() };
    return [reportsOf.run(mark, work), mark];
  }

  /** id -> value of one kind: as read at start, then as reported or applied since. */
  records(kind: string): Map<string, unknown> {
    return this.live.get(kind) ?? new Map();
  }

  /** Calls `listener` on the turn after every undo; returns its removal. */
  onUndo(listener: (undo: UndoneChanges) => void): () => void {
    this.undoListeners.add(listener);
    return () => this.undoListeners.delete(listener);
  }

  /** How one record of each kind goes back into its store (undo, another process's change). Set once at start. */
  applyWith(appliers: ReadonlyMap<string, ApplyRecord>): void {
    this.appliers = appliers;
  }

  /**
   * Where the stores report changes. Each sink is bound to the state as it was when taken: after a reset (this
   * process's or another's) the previous simulator's late reports (a timer, an attempt's outcome) are dropped.
   */
  get persist(): Persist {
    const epoch = this.epoch;
    return {
      put: (kind, id, value) => {
        if (epoch === this.epoch) this.put(kind, id, value);
      },
      delete: (kind, id) => {
        if (epoch === this.epoch) this.delete(kind, id);
      },
    };
  }

  /** The sandbox's generation as this process holds it (a reset draws a new one; undefined: never reset). */
  get generation(): string | undefined {
    return this.sandboxGeneration;
  }

  /**
   * Another process reset the sandbox: `rebuild` is called once this process holds the database's new state (its
   * records read again), to build the simulator afresh on it (server.ts).
   */
  followResets(rebuild: () => Promise<void>): void {
    this.rebuild = rebuild;
  }

  /** Resolves once a reset found in a catch-up is followed (the simulator rebuilt); at once when none is under way. */
  async afterReset(): Promise<void> {
    await this.following?.catch(() => undefined);
  }

  put(kind: string, id: string, value: unknown): void {
    this.report({ kind, id, value, deleted: false });
  }

  delete(kind: string, id: string): void {
    this.report({ kind, id, value: undefined, deleted: true });
  }

  /**
   * A write request is about to run: resolves once it may (the session holds the write lock and has caught up).
   * Give the ticket back to endWrite whatever the handler did.
   */
  async beginWrite(): Promise<WriteTicket> {
    for (;;) {
      // Checked on every turn: a writer that waited for a refused session must not open the next one.
      if (this.failure) throw this.failure;
      const session = this.session?.accepting ? this.session : undefined;
      if (session) {
        session.joined += 1;
        try {
          await session.opened;
        } catch (error) {
          if (error instanceof SandboxResetError) throw error;
          throw asUnavailable(error, this.where);
        }
        return { session };
      }
      if (this.session) await this.session.done.catch(() => undefined);
      else this.session = this.openSession();
    }
  }

  /** The request's handler has run: resolves once the session committed its changes; rejects when they were undone. */
  endWrite(ticket: WriteTicket): Promise<void> {
    const { session } = ticket;
    session.joined -= 1;
    if (session.joined === 0) session.release();
    return session.done;
  }

  /**
   * Resolves once everything reported before the call is committed. With a request's `mark` (trackWrites: a request
   * that ran outside a session), rejects if an undo since took one of the records it reported: that change is gone.
   */
  async commit(mark?: WriteMark): Promise<void> {
    if (this.reopening && this.pending.size > 0) {
      // The database is being opened afresh: what is pending cannot be written now, and a client must not be told
      // it was refused while it is written later.
      this.undo([]);
      throw this.failure ?? new StorageUnavailableError(`${this.where} is being reopened`, false);
    }
    for (;;) {
      const session = this.session;
      if (session?.accepting) {
        if (session.joined === 0) session.release();
        await session.done;
        break;
      }
      if (session) {
        await session.done.catch(() => undefined);
        continue;
      }
      if (this.pending.size === 0) break;
      this.session = this.openSession();
    }
    if (mark && this.undoneSince(mark))
      throw this.failure ?? new StorageUnavailableError(`${this.where} took another process's change first; this change was undone`, false);
  }

  /**
   * Resolves once every change this process made so far is committed, on a server database: a read waits for it, so
   * no process answers a state the others cannot read yet (a settlement found outside any request is committed a
   * moment after it happened). At once on an embedded database, when nothing is pending, and while the database
   * refuses writes (reads go on from memory then); never rejects.
   */
  settled(): Promise<void> {
    if (!this.shared || this.closed || this.failure || this.reopening) return Promise.resolve();
    if (this.pending.size === 0 && !this.session) return Promise.resolve();
    return this.commit().catch(() => undefined);
  }

  /**
   * Applies what other processes committed since this one last looked (a server database only): called before a
   * request is answered. Resolves at once on an embedded database, which no other process can write.
   */
  refresh(): Promise<void> {
    if (!this.shared || this.closed) return Promise.resolve();
    // A refresh already running may have read before the caller's request arrived: the caller gets the next one.
    if (!this.refreshing) {
      const run = this.serially(() => this.catchUp(this.db)).finally(() => {
        if (this.refreshing === run) this.refreshing = undefined;
      });
      this.refreshing = run;
      return run;
    }
    this.refreshQueued ??= this.refreshing
      .catch(() => undefined)
      .then(() => {
        this.refreshQueued = undefined;
        return this.refresh();
      });
    return this.refreshQueued;
  }

  /**
   * Empties the database and the records (reset), and starts a new generation of the sandbox: every other process on
   * the database finds it in its next catch-up and starts afresh too. Waits for writes in flight first.
   */
  async clear(): Promise<void> {
    await this.commit().catch(() => undefined);
    this.epoch += 1;
    this.pending.clear();
    this.live.clear();
    this.committed.clear();
    const generation = randomUUID();
    const change = await resetDatabase(this.db, generation);
    this.sandboxGeneration = generation;
    this.lastChange = Math.max(this.lastChange, change);
  }

  /** Writes what is pending (if it can) and closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(() => undefined);
    this.closed = true;
    clearTimeout(this.probeTimer);
    await this.stopListening?.();
    await this.db.close();
  }

  private report(change: Change): void {
    if (this.closed) return;
    this.track(change.kind, change.id, change.deleted ? undefined : change.value);
    const key = keyOf(change.kind, change.id);
    reportsOf.getStore()?.reported.add(key);
    // Re-inserted so the map keeps report order (the order the batch writes them).
    this.pending.delete(key);
    this.pending.set(key, change);
    this.schedule();
  }

  private schedule(): void {
    // Changes made outside a request (timers, webhook outcomes) reach the database without anyone asking.
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending.size > 0 && !this.closed && !this.failure) void this.commit().catch(() => undefined);
    });
  }

  private openSession(): Session {
    let letGo!: () => void;
    const released = new Promise<void>((resolve) => (letGo = resolve));
    // Closed to newcomers the moment it is released: a writer that joined later would run after the batch is taken.
    const release = (): void => {
      session.accepting = false;
      letGo();
    };
    let opened!: () => void;
    let refused!: (error: unknown) => void;
    const openedPromise = new Promise<void>((resolve, reject) => {
      opened = resolve;
      refused = reject;
    });
    openedPromise.catch(() => undefined);
    const session: Session = { joined: 0, accepting: true, release, opened: openedPromise, done: Promise.resolve() };
    let batch: Change[] = [];
    const before = this.lastChange;
    let written = before;
    session.done = this.db
      .transaction(async (tx) => {
        await takeWriteLock(tx);
        await this.serially(() => this.catchUp(tx));
        // One turn of the event loop before handlers run, so every request whose bytes have already arrived joins
        // this session. Without it an embedded database (PGlite answers on promises that settle without I/O) ran
        // each request's whole session, commit included, before the next request was even read: one request per
        // transaction, whatever the concurrency.
        await nextTurn();
        opened();
        await released;
        batch = [...this.pending.values()];
        this.pending.clear();
        for (const entry of batch) written = Math.max(written, await writeChange(tx, entry, this.leases?.holder));
        // Sent on COMMIT (not at all on a rollback): the other processes' clocks and timers follow at once.
        if (this.leases && batch.some((entry) => entry.kind === CLOCK))
          await tx.query('SELECT pg_notify($1, $2)', [CLOCK_CHANNEL, this.leases.holder.owner]);
        // Set before COMMIT: nobody else draws numbers while the lock is held, and a catch-up that reads these rows
        // once committed must see them as this process's own.
        this.lastChange = Math.max(this.lastChange, written);
      })
      .then(
        () => {
          for (const entry of batch) {
            const key = keyOf(entry.kind, entry.id);
            if (entry.deleted) this.committed.delete(key);
            else this.committed.set(key, jsonText(entry.value));
          }
          this.failure = undefined;
          this.probeWaitMs = PROBE_MS;
        },
        (error: unknown) => {
          refused(error);
          // A reset by another process: what this process held is being replaced wholesale, nothing to undo.
          if (error instanceof SandboxResetError) throw error;
          const failure = asUnavailable(error, this.where);
          if (batch.length > 0) this.unsureSince = Math.min(this.unsureSince ?? before, before);
          this.undo(batch);
          if (isGroundFailure(error)) {
            this.failure = failure;
            this.probeLater();
          }
          throw failure;
        },
      )
      .finally(() => {
        if (this.session === session) this.session = undefined;
        // What was reported while this session wrote goes in the next one.
        if (this.pending.size > 0) this.schedule();
      });
    session.done.catch(() => undefined);
    return session;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.catchUps.then(work);
    this.catchUps = run.catch(() => undefined);
    return run;
  }

  /** Applies the rows other processes committed since lastChange, the clock last. */
  private async catchUp(q: SqlQueries): Promise<void> {
    if (!this.shared) return;
    if (this.reloading) throw new SandboxResetError();
    // Rows this process wrote itself are skipped (their numbers were taken under the lock before it committed).
    this.applyRows(
      (await changesSince(q, this.lastChange)).filter((row) => row.change > this.lastChange),
      true,
    );
  }

  /** Puts rows read from the database into memory (the clock last); a row of a record with a change pending wins over it. */
  private applyRows(rows: ChangedRow[], remote: boolean): void {
    const conflicts = new Set<string>();
    const clockRows: ChangedRow[] = [];
    for (const row of rows) {
      // Another process reset the sandbox: nothing more is applied to this generation's stores.
      if (row.kind === GENERATION_KIND && generationOf(row.body) !== this.sandboxGeneration) throw this.followReset();
      this.lastChange = Math.max(this.lastChange, row.change);
      const key = keyOf(row.kind, row.id);
      if (row.body === null) this.committed.delete(key);
      else this.committed.set(key, row.body);
      const ours = this.pending.get(key);
      if (ours) {
        // A record both processes deleted (each dropping the same expired checkout session) is no conflict.
        if (!LAST_WRITER_WINS.has(row.kind) && !deletedByBoth(ours, row.body)) {
          conflicts.add(key);
          continue;
        }
        this.pending.delete(key);
      }
      if (row.kind === CLOCK) clockRows.push(row);
      else this.apply(row.kind, row.id, row.body, remote);
    }
    // A change of ours that another process made first: ours (and everything reported after it) is undone, but for
    // webhook attempts made meanwhile: those happened, whatever the conflict (see attemptMade).
    if (conflicts.size > 0)
      this.undo(
        [],
        (key, change) => !conflicts.has(key) && this.attemptMade(key, change),
        [...conflicts].map((key) => key.replace('\u0000', ' ')),
      );
    for (const row of clockRows) this.apply(row.kind, row.id, row.body, remote);
  }

  /**
   * Starts following another process's reset (once): reports stop reaching the database, the records are read again
   * under the write lock (after the session that found the reset has rolled back), then the simulator is rebuilt.
   */
  private followReset(): SandboxResetError {
    if (!this.following) {
      this.epoch += 1;
      this.pending.clear();
      this.reloading = true;
      this.following = (async () => {
        try {
          this.load(await this.stateAfterReset());
          // From here on catch-ups go on (the rebuilt simulator's own commits need them): what they apply is kept in
          // the records the rebuild reads; the previous simulator's stores get nothing more.
          this.reloading = false;
          this.appliers = undefined;
          this.noteUndo('all');
          await this.rebuild?.();
        } finally {
          this.reloading = false;
          this.following = undefined;
        }
      })();
      this.following.catch(() => undefined);
    }
    return new SandboxResetError();
  }

  /**
   * The database as the resetting process left it. That process writes its fresh simulator's records (default
   * merchant, key) in the commit right after the reset's: until they are there, this process would make a default
   * merchant of its own, so it reads again for a short while (then goes on alone: the resetter may have died).
   */
  private async stateAfterReset(): Promise<StateSnapshot> {
    const deadline = Date.now() + RESET_SETTLE_MS;
    for (;;) {
      const snapshot = await readState(this.db);
      const rows = [...snapshot.texts.values()].reduce((n, rows) => n + rows.size, 0);
      if (rows > 1 || Date.now() >= deadline) return snapshot;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Every change of `batch` and every change still pending goes back to its committed value. */
  /**
   * Puts every record of `batch` and every pending one back to its committed version. `keep` names pending changes
   * that stay pending instead (written by the next session).
   */
  private undo(batch: Change[], keep?: (key: string, change: Change) => boolean, conflicts: string[] = []): void {
    const keys = new Map<string, Change>();
    for (const entry of batch) keys.set(keyOf(entry.kind, entry.id), entry);
    for (const [key, entry] of this.pending) {
      if (keep?.(key, entry)) continue;
      keys.set(key, entry);
      this.pending.delete(key);
    }
    this.noteUndo(new Set(keys.keys()));
    for (const [key, { kind, id }] of keys) this.apply(kind, id, this.committed.get(key) ?? null, false);
    const undo: UndoneChanges = { undone: keys.size, conflicts };
    if (keys.size > 0) for (const listener of this.undoListeners) setImmediate(listener, undo);
  }

  private noteUndo(keys: ReadonlySet<string> | 'all'): void {
    this.undone += 1;
    this.undoHistory.push({ number: this.undone, keys });
    if (this.undoHistory.length > UNDO_HISTORY) this.undoHistory.shift();
  }

  /** Whether an undo since `mark` was taken put back a record it reported (or may have: history too short, a reset). */
  private undoneSince(mark: WriteMark): boolean {
    if (this.undone === mark.undoCount) return false;
    const since = this.undoHistory.filter((undo) => undo.number > mark.undoCount);
    if (since.length < this.undone - mark.undoCount) return true;
    return since.some(({ keys }) => keys === 'all' || [...mark.reported].some((key) => keys.has(key)));
  }

  /**
   * Whether a pending change records a webhook attempt made since the committed version: a put of an existing
   * delivery holding more attempts. The request went out and was answered (a delivery is committed before its first
   * attempt, and an attempt is claimed under its lease first), so undoing the record would only send it again.
   */
  private attemptMade(key: string, change: Change): boolean {
    if (change.kind !== DELIVERY_KIND || change.deleted) return false;
    const committed = this.committed.get(key);
    if (committed === undefined) return false;
    const made = (value: unknown): number => ((value as { attempts?: unknown[] } | null)?.attempts ?? []).length;
    return made(change.value) > made(JSON.parse(committed));
  }

  private apply(kind: string, id: string, body: string | null, remote: boolean): void {
    const value = body === null ? undefined : JSON.parse(body);
    this.track(kind, id, value);
    this.appliers?.get(kind)?.(id, value, { remote });
  }

  /** records() follows every change (read at start, and by tests after a commit). */
  private track(kind: string, id: string, value: unknown): void {
    let bucket = this.live.get(kind);
    if (!bucket) this.live.set(kind, (bucket = new Map()));
    if (value === undefined) bucket.delete(id);
    else bucket.set(id, value);
  }

  /**
   * While writes are refused, the database is probed: a server every second (its pool reconnects by itself); an
   * embedded database is opened afresh (recover), with a wait that doubles up to MAX_REOPEN_WAIT_MS while it will not open.
   */
  private probeLater(): void {
    if (this.probeTimer !== undefined || this.closed) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = undefined;
      if (this.closed || !this.failure) return;
      // Doubled at every reopen, and back to PROBE_MS only once a commit passes: a database that opens but still
      // refuses writes (a disk still full) is not opened afresh every second.
      if (this.db.reopen) this.probeWaitMs = Math.min(this.probeWaitMs * 2, MAX_REOPEN_WAIT_MS);
      const probe = this.db.reopen ? this.recover() : this.db.query('SELECT 1').then(() => undefined);
      probe.then(
        () => (this.failure = undefined),
        () => this.probeLater(),
      );
    }, this.probeWaitMs);
    this.probeTimer.unref();
  }

  /**
   * Opens an embedded database afresh after a ground failure (its instance may keep refusing after the ground is
   * back, see pglite-client.ts), then reads the rows of every batch refused since the last commit: a COMMIT reported
   * as failed may have reached the disk all the same, and memory must then hold what the database holds. Runs with no
   * session open and none opening (writes are refused meanwhile).
   */
  private async recover(): Promise<void> {
    this.reopening = true;
    try {
      await this.session?.done.catch(() => undefined);
      await this.db.reopen?.();
      const since = this.unsureSince;
      if (since !== undefined) {
        const rows = await this.serially(() =>
          this.db.transaction(async (tx) => {
            await takeWriteLock(tx);
            return changesSince(tx, since);
          }),
        );
        this.applyRows(rows, false);
        this.unsureSince = undefined;
      }
    } finally {
      this.reopening = false;
    }
    if (this.pending.size > 0) this.schedule();
  }
}

/** Set while a write request's handler runs (withinWrite). */
const insideWriteSession = new AsyncLocalStorage<true>();
/** The request (outside a write session) whose reports are being noted, see trackWrites. */
const reportsOf = new AsyncLocalStorage<WriteMark>();
/** Undos remembered for undoneSince; a request older than these is refused if any undo happened since it began. */
const UNDO_HISTORY = 256;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Whether the ground failed (server down, disk full, I/O) rather than the batch itself (a constraint). */
function isGroundFailure(error: unknown): boolean {
  const state = sqlState(error);
  // Class 23 is an integrity constraint (the batch's own fault), class 40 a serialisation failure: the next batch may pass.
  return !(state?.startsWith('23') || state?.startsWith('40') || /would move back/.test(String((error as Error | undefined)?.message)));
}

function asUnavailable(error: unknown, where: string): StorageUnavailableError {
  if (error instanceof StorageUnavailableError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const full = sqlState(error) === DISK_FULL || /ENOSPC|No space left|disk full/i.test(reason);
  return new StorageUnavailableError(`${where} did not take the write: ${reason.split('\n')[0]}`, full, { cause: error });
}
