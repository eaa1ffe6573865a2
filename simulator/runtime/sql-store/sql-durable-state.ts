// Durable mode on a database (PGlite behind --state-dir, a Postgres server behind --database-url): the stores keep
// their working set in memory and report each change to `persist`; commit() writes every change reported so far in
// ONE transaction and resolves once it is committed, and the HTTP edge awaits it before it answers. So a request's
// changes land together with the webhook deliveries they enqueued (the outbox), or none of them do: an acknowledged
// change always has its deliveries, an unacknowledged one has none.
//
// The database checks what the service decided: a payment row moves only forward (a conditional upsert; a backward
// version is refused and the transaction rolled back), and a live externalId has one holder (the partial unique
// index of migration 1). A commit that fails (disk full, read-only directory, server down) leaves its changes
// pending, in order, and the next commit tries them again, so the database catches up by itself once the ground is
// back; the failed commit is reported as StorageUnavailableError, which the edge answers 503 (507 when full).
import type { Persist } from '../../core/support/persist.ts';
import { migrate } from './schema.ts';
import { type SqlClient, type SqlQueries, sqlState } from './sql-client.ts';

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

/** A change reported but not yet committed. */
interface Pending {
  kind: string;
  id: string;
  value: unknown;
  deleted: boolean;
}

const PAYMENT = 'payment';
/** How often held changes are tried again while the database refuses them. */
const RETRY_MS = 1000;
const DELIVERY = 'delivery';
/** The forward order of payment statuses (core/payments statusRank) in SQL. */
const rank = (column: string): string => `(CASE ${column} WHEN 'ACTIVE' THEN 0 WHEN 'PROCESSING' THEN 1 ELSE 2 END)`;

/** SQLSTATEs of a full disk (53100 disk_full, 53200 out_of_memory is not storage) and of I/O that failed. */
const DISK_FULL = '53100';

export class SqlDurableState {
  private readonly pending = new Map<string, Pending>();
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private scheduled = false;
  private closed = false;
  /** Set while the last commit failed: writes are refused before they change anything, until a retry lands. */
  private failure: StorageUnavailableError | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: SqlClient,
    private readonly live: StateRecords,
    /** Where the state is kept, for messages and the banner ("the database in …/db", "the database at postgres://…"). */
    readonly where: string,
  ) {}

  /** Applies the migrations and reads every record back. */
  static async open(db: SqlClient, where: string): Promise<SqlDurableState> {
    await migrate(db);
    const live: StateRecords = new Map();
    const bucket = (kind: string): Map<string, unknown> => {
      let found = live.get(kind);
      if (!found) live.set(kind, (found = new Map()));
      return found;
    };
    for (const row of (await db.query<{ kind: string; id: string; body: unknown }>('SELECT kind, id, body FROM records ORDER BY pos')).rows)
      bucket(row.kind).set(row.id, row.body);
    const payments = bucket(PAYMENT);
    for (const row of (await db.query<{ id: string; body: unknown }>('SELECT id, body FROM payments ORDER BY created_at, id')).rows)
      payments.set(row.id, row.body);
    const deliveries = bucket(DELIVERY);
    for (const row of (await db.query<{ id: string; body: unknown }>('SELECT id, body FROM webhook_deliveries ORDER BY pos')).rows)
      deliveries.set(row.id, row.body);
    return new SqlDurableState(db, live, where);
  }

  /** The failure of the last commit while the database has not taken one since (the edge refuses writes meanwhile). */
  get unavailable(): StorageUnavailableError | undefined {
    return this.failure;
  }

  records(kind: string): Map<string, unknown> {
    return this.live.get(kind) ?? new Map();
  }

  readonly persist: Persist = {
    put: (kind, id, value) => this.put(kind, id, value),
    delete: (kind, id) => this.delete(kind, id),
  };

  put(kind: string, id: string, value: unknown): void {
    if (this.closed) return;
    let bucket = this.live.get(kind);
    if (!bucket) this.live.set(kind, (bucket = new Map()));
    bucket.set(id, value);
    this.pending.set(`${kind}\u0000${id}`, { kind, id, value, deleted: false });
    this.schedule();
  }

  delete(kind: string, id: string): void {
    if (this.closed) return;
    this.live.get(kind)?.delete(id);
    this.pending.set(`${kind}\u0000${id}`, { kind, id, value: undefined, deleted: true });
    this.schedule();
  }

  /** Resolves once everything reported before the call is committed (one transaction for all of it). */
  commit(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.pending.size === 0) return this.inFlight ?? Promise.resolve();
    if (!this.inFlight) {
      const run = this.flush().finally(() => {
        if (this.inFlight === run) this.inFlight = null;
      });
      this.inFlight = run;
      return run;
    }
    const queued = this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.commit();
      });
    this.queued = queued;
    return queued;
  }

  /** Empties the database and the records (reset). Waits for writes in flight first. */
  async clear(): Promise<void> {
    await this.commit().catch(() => undefined);
    this.pending.clear();
    this.live.clear();
    await this.db.exec('TRUNCATE payments, webhook_deliveries, records');
  }

  /** Writes what is pending (if it can) and closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(() => undefined);
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.db.close();
  }

  private schedule(): void {
    // Changes made outside a request (timers, webhook outcomes) reach the database without anyone asking.
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending.size > 0 && !this.closed) void this.commit().catch(() => undefined);
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending.clear();
    try {
      await this.db.transaction(async (tx) => {
        for (const entry of batch) await write(tx, entry);
      });
      this.failure = undefined;
    } catch (error) {
      // Not committed: the batch goes back in front of what was reported meanwhile (a later version of one of its
      // records wins), so the next commit writes it again.
      const later = [...this.pending.entries()];
      this.pending.clear();
      for (const entry of batch) this.pending.set(`${entry.kind}\u0000${entry.id}`, entry);
      for (const [key, entry] of later) this.pending.set(key, entry);
      this.failure = unavailable(error, this.where);
      this.retryLater();
      throw this.failure;
    }
  }

  /** While the database refuses, the held changes are tried again every second, so it catches up without a request. */
  private retryLater(): void {
    if (this.retryTimer !== undefined || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.closed && this.failure) void this.commit().catch(() => undefined);
    }, RETRY_MS);
    this.retryTimer.unref();
  }
}

/**
 * A record as jsonb text. Postgres text cannot hold NUL, so jsonb refuses the escape \u0000: a NUL inside a string
 * (which only a client that sends one can put there) is kept as U+FFFD instead of failing every commit after it.
 */
function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

async function write(tx: SqlQueries, entry: Pending): Promise<void> {
  const { kind, id, deleted } = entry;
  const value = deleted ? undefined : jsonText(entry.value);
  if (kind === PAYMENT) {
    if (deleted) {
      await tx.query('DELETE FROM payments WHERE id = $1', [id]);
      return;
    }
    const p = entry.value as { merchantId: string; status: string; externalId: string | null; createdAt: number; updatedAt: number };
    // Forward only: a version that would move a stored payment back is refused (the transaction rolls back).
    const { affectedRows } = await tx.query(
      `INSERT INTO payments (id, merchant_id, status, external_id, created_at, updated_at, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, external_id = EXCLUDED.external_id,
         updated_at = EXCLUDED.updated_at, body = EXCLUDED.body
       WHERE payments.status = EXCLUDED.status OR ${rank('payments.status')} < ${rank('EXCLUDED.status')}`,
      [id, p.merchantId, p.status, p.externalId, p.createdAt, p.updatedAt, value],
    );
    if (affectedRows !== 1) throw new Error(`payment ${id} would move back to ${p.status}; the database keeps the later state`);
    return;
  }
  if (kind === DELIVERY) {
    if (deleted) await tx.query('DELETE FROM webhook_deliveries WHERE id = $1', [id]);
    else
      await tx.query(
        `INSERT INTO webhook_deliveries (id, status, body) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body`,
        [id, (entry.value as { status: string }).status, value],
      );
    return;
  }
  if (deleted) await tx.query('DELETE FROM records WHERE kind = $1 AND id = $2', [kind, id]);
  else
    await tx.query(
      'INSERT INTO records (kind, id, body) VALUES ($1, $2, $3::jsonb) ON CONFLICT (kind, id) DO UPDATE SET body = EXCLUDED.body',
      [kind, id, value],
    );
}

function unavailable(error: unknown, where: string): StorageUnavailableError {
  const reason = error instanceof Error ? error.message : String(error);
  const full = sqlState(error) === DISK_FULL || /ENOSPC|No space left|disk full/i.test(reason);
  return new StorageUnavailableError(`${where} did not take the write: ${reason.split('\n')[0]}`, full, { cause: error });
}
