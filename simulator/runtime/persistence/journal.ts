// The durable store behind --state-dir: an append-only log of record versions (JSON lines), with a
// snapshot that compaction rewrites. Each line is one record's latest value (`put`) or its removal
// (`del`), keyed by kind and id, with a sequence number; replay keeps the last line per key. Stores
// call put() as they change (synchronously, no I/O); commit() writes everything put so far in one
// append and one fdatasync (group commit) and resolves only once it is on disk. The HTTP edge
// awaits commit() before it answers, so an acknowledged write is a durable one.
//
// Files in the state directory:
//   snapshot.jsonl  header {"snapshot":1,"seq":N} then one {"k","i","v"} line per live record; written
//                   to a temporary file, fsynced and renamed, so it is never torn.
//   journal.jsonl   {"s":seq,"e":end,"k":kind,"i":id,"v":value} or {"s","e","k","i","d":1}; lines with s <= the
//                   snapshot's seq are already in the snapshot (a crash between the snapshot's rename and
//                   the log's truncation leaves them behind) and are skipped.
// A commit is all or nothing: every line of one append carries `e`, the sequence number of the append's last
// line, and replay applies an append only once that last line is read. A SIGKILL can cut a multi-page write
// short at a page boundary, so without this a restart could keep a payment's new status and lose the webhook
// delivery written beside it. An incomplete last append (never acknowledged: commit() resolves only once the
// whole append is on disk) is dropped and reported once; any other unreadable line is a StateDirError naming the
// file and line. Lines without `e` (written before commits were marked) each count as a commit of their own.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Persist } from '../../core/support/persist.ts';

export const SNAPSHOT_FILE = 'snapshot.jsonl';
export const JOURNAL_FILE = 'journal.jsonl';

/** The state directory cannot be used: names the file and line; the CLI exits 2 with it. */
export class StateDirError extends Error {}

/** kind -> id -> value, as replayed from the directory. */
export type StateRecords = Map<string, Map<string, unknown>>;

export interface JournalOptions {
  /** Compact once the log holds more lines than this and more than twice the live records (default 50,000). */
  compactAfterLines?: number;
  /** Told once about a dropped torn line (the CLI prints it). */
  warn?: (message: string) => void;
}

interface Pending {
  kind: string;
  id: string;
  value: unknown;
  deleted: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Journal {
  /** The live records (references to the stores' own objects), written out whole by compaction. */
  private readonly live: StateRecords;
  private readonly pending = new Map<string, Pending>();
  private seq: number;
  private logLines: number;
  private handle: FileHandle | undefined;
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private closed = false;
  private scheduled = false;
  private readonly compactAfterLines: number;

  private constructor(
    readonly dir: string,
    loaded: { records: StateRecords; seq: number; logLines: number },
    options: JournalOptions,
  ) {
    this.live = loaded.records;
    this.seq = loaded.seq;
    this.logLines = loaded.logLines;
    this.compactAfterLines = options.compactAfterLines ?? 50_000;
  }

  /** Opens (creating it if needed) and replays a state directory. Throws StateDirError on corruption. */
  static async open(dir: string, options: JournalOptions = {}): Promise<Journal> {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new StateDirError(`state dir ${dir} cannot be created: ${(error as Error).message}`);
    }
    if (!statSync(dir).isDirectory()) throw new StateDirError(`state dir ${dir} is not a directory`);
    rmSync(join(dir, `${SNAPSHOT_FILE}.tmp`), { force: true });
    const loaded = replay(dir, options.warn ?? (() => undefined));
    const journal = new Journal(dir, loaded, options);
    journal.handle = await open(join(dir, JOURNAL_FILE), 'a', 0o600);
    return journal;
  }

  /** What the directory held at open (and what has been put since). */
  records(kind: string): Map<string, unknown> {
    return this.live.get(kind) ?? new Map();
  }

  /** A sink for the stores. */
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

  /** Resolves once everything put before the call is on disk (one append + fdatasync for all of it). */
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

  /** Empties the directory and the records (reset). Waits for writes in flight first. */
  async clear(): Promise<void> {
    await this.commit().catch(() => undefined);
    this.pending.clear();
    this.live.clear();
    await this.handle?.truncate(0);
    await this.handle?.datasync();
    rmSync(join(this.dir, SNAPSHOT_FILE), { force: true });
    fsyncDir(this.dir);
    this.logLines = 0;
  }

  /** Writes what is pending and closes the log (a clean stop). */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(() => undefined);
    this.closed = true;
    await this.handle?.close();
    this.handle = undefined;
  }

  /** Rewrites the snapshot from the live records and empties the log. */
  async compact(): Promise<void> {
    await this.commit();
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    // Runs as the write in flight, so commits wait for it and the log is never appended to mid-rewrite.
    const run: Promise<void> = this.writeSnapshot().finally(() => {
      if (this.inFlight === run) this.inFlight = null;
    });
    this.inFlight = run;
    await run;
  }

  private schedule(): void {
    // Writes made outside a request (timers, webhook outcomes) reach the disk without anyone asking: a commit
    // on the next tick, which queues behind a write in flight if there is one.
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending.size > 0) void this.commit().catch(() => undefined);
    });
  }

  private async flush(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    let text = '';
    // Every line names the append's last sequence number, so replay can tell a whole append from a cut-short one.
    const end = this.seq + this.pending.size;
    for (const entry of this.pending.values()) {
      this.seq += 1;
      text += entry.deleted
        ? `${JSON.stringify({ s: this.seq, e: end, k: entry.kind, i: entry.id, d: 1 })}\n`
        : `${JSON.stringify({ s: this.seq, e: end, k: entry.kind, i: entry.id, v: entry.value })}\n`;
    }
    const lines = this.pending.size;
    this.pending.clear();
    await handle.write(text);
    await handle.datasync();
    this.logLines += lines;
    if (this.logLines > this.compactAfterLines && this.logLines > 2 * this.liveCount()) await this.writeSnapshot();
  }

  private liveCount(): number {
    let n = 0;
    for (const bucket of this.live.values()) n += bucket.size;
    return n;
  }

  private async writeSnapshot(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    // Everything in the log so far is <= seq; pending puts (not yet in the log) get higher numbers.
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.tmp`);
    const out = await open(tmp, 'w', 0o600);
    try {
      await out.write(`${JSON.stringify({ snapshot: 1, seq: this.seq })}\n`);
      let chunk = '';
      for (const [kind, bucket] of this.live) {
        for (const [id, value] of bucket) {
          chunk += `${JSON.stringify({ k: kind, i: id, v: value })}\n`;
          if (chunk.length > 1 << 20) {
            await out.write(chunk);
            chunk = '';
          }
        }
      }
      await out.write(chunk);
      await out.datasync();
    } finally {
      await out.close();
    }
    renameSync(tmp, join(this.dir, SNAPSHOT_FILE));
    fsyncDir(this.dir);
    await handle.truncate(0);
    await handle.datasync();
    this.logLines = 0;
  }
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function corrupted(file: string, line: number, why: string): StateDirError {
  return new StateDirError(`state dir file ${file} is corrupted at line ${line} (${why}); move the directory away or repair that line`);
}

function replay(dir: string, warn: (message: string) => void): { records: StateRecords; seq: number; logLines: number } {
  const records: StateRecords = new Map();
  const set = (kind: string, id: string, value: unknown) => {
    let bucket = records.get(kind);
    if (!bucket) records.set(kind, (bucket = new Map()));
    bucket.set(id, value);
  };
  let snapshotSeq = 0;
  const snapshotPath = join(dir, SNAPSHOT_FILE);
  if (existsSync(snapshotPath)) {
    const lines = readFileSync(snapshotPath, 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    lines.forEach((text, index) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw corrupted(snapshotPath, index + 1, 'not JSON');
      }
      if (!isObject(parsed)) throw corrupted(snapshotPath, index + 1, 'not a record');
      if (index === 0) {
        if (parsed.snapshot !== 1 || typeof parsed.seq !== 'number') throw corrupted(snapshotPath, 1, 'not a snapshot header');
        snapshotSeq = parsed.seq;
        return;
      }
      if (typeof parsed.k !== 'string' || typeof parsed.i !== 'string' || !('v' in parsed))
        throw corrupted(snapshotPath, index + 1, 'not a record');
      set(parsed.k, parsed.i, parsed.v);
    });
  }
  let seq = snapshotSeq;
  let logLines = 0;
  const logPath = join(dir, JOURNAL_FILE);
  if (existsSync(logPath)) {
    const text = readFileSync(logPath, 'utf8');
    const lines = text.split('\n');
    // A complete log ends with "\n": the last element is then empty. Anything else is a cut-short write.
    const tail = lines.pop() ?? '';
    /** Lines of the append being read, applied once its last line (s === e) is read. */
    let batch: { line: number; record: LogLine }[] = [];
    /** Bytes and lines up to the end of the last whole append. */
    let committedOffset = 0;
    let committedLines = 0;
    let offset = 0;
    const apply = (line: number, record: LogLine) => {
      if (record.s <= snapshotSeq) return;
      if (record.s <= seq) throw corrupted(logPath, line, 'sequence number out of order');
      seq = record.s;
      if (record.d === 1) records.get(record.k)?.delete(record.i);
      else set(record.k, record.i, record.v);
    };
    lines.forEach((text, index) => {
      const record = parseLogLine(text);
      if (!record) throw corrupted(logPath, index + 1, 'not a journal record');
      offset += Buffer.byteLength(text) + 1;
      if (record.e === undefined) {
        // A line from before commits were marked: a commit of its own.
        if (batch.length > 0) throw corrupted(logPath, index + 1, 'an unmarked line inside an append');
        apply(index + 1, record);
      } else {
        const open = batch[0]?.record.e;
        if (record.e < record.s || (open !== undefined && record.e !== open))
          throw corrupted(logPath, index + 1, 'append boundary out of order');
        batch.push({ line: index + 1, record });
        if (record.s !== record.e) return;
        for (const entry of batch) apply(entry.line, entry.record);
        batch = [];
      }
      committedOffset = offset;
      committedLines = index + 1;
    });
    logLines = committedLines;
    if (tail !== '' || batch.length > 0) {
      // Never acknowledged (a commit resolves only after the whole append is on disk): drop it whole.
      truncateSync(logPath, committedOffset);
      const dropped = batch.length + (tail === '' ? 0 : 1);
      warn(
        `state dir: dropped an incomplete last write of ${logPath} (${dropped} line${dropped === 1 ? '' : 's'} from line ${committedLines + 1}, a write cut short by a crash; it was never acknowledged)`,
      );
    }
  }
  return { records, seq, logLines };
}

interface LogLine {
  s: number;
  /** The sequence number of the last line of the append this line belongs to (absent on unmarked older lines). */
  e?: number;
  k: string;
  i: string;
  v?: unknown;
  d?: number;
}

function parseLogLine(line: string): LogLine | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.s !== 'number' || typeof parsed.k !== 'string' || typeof parsed.i !== 'string') return undefined;
  if (parsed.e !== undefined && typeof parsed.e !== 'number') return undefined;
  if (parsed.d !== 1 && !('v' in parsed)) return undefined;
  return parsed as unknown as LogLine;
}

/** For tests: append raw bytes to the log, as a crash mid-write would leave them. */
export function appendRaw(dir: string, bytes: string): void {
  const fd = openSync(join(dir, JOURNAL_FILE), 'a');
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
