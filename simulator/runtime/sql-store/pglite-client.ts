// Embedded Postgres (PGlite: Postgres compiled to WebAssembly, no server, no native build) as a SqlClient: in memory,
// or in a data directory that survives the process (`--state-dir`). A directory PGlite cannot open is one sentence
// naming it, never a stack. A new directory is made from a template (a freshly initialised data directory, kept in
// the user's cache once made), because PGlite's initdb takes 5 to 20 s where copying the template takes 1 to 3 s.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { SqlClient, SqlQueries, SqlResult } from './sql-client.ts';

export class DatabaseOpenError extends Error {}

function queries(db: PGlite | Transaction): SqlQueries {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<SqlResult<Row>> {
      const result = await db.query<Row>(sql, params);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql);
    },
  };
}

export interface OpenPgliteOptions {
  /** Told once, before a new data directory is initialised (the banner says so: it is the slow part of a first start). */
  onInitialising?: (how: 'template' | 'initdb') => void;
  /** Where the template lives (default: $STABLEPAY_CACHE_DIR, else $XDG_CACHE_HOME/stablepay, else ~/.cache/stablepay). */
  cacheDir?: string;
}

/** Opens PGlite in `dataDir` (made on first use) or, without one, in memory. */
export async function openPglite(dataDir?: string, options: OpenPgliteOptions = {}): Promise<SqlClient> {
  let db: PGlite;
  try {
    if (dataDir === undefined) {
      // In memory too, the template (when there is one) spares the initdb.
      const template = templatePath(options.cacheDir);
      db = existsSync(template) ? new PGlite({ loadDataDir: new Blob([readFileSync(template)]) }) : new PGlite();
    } else db = await openDirectory(dataDir, options);
    await db.waitReady;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseOpenError(`cannot open the database in ${dataDir ?? 'memory'}: ${reason.split('\n')[0]}`);
  }
  if (dataDir === undefined)
    return { ...queries(db), transaction: (work) => db.transaction((tx) => work(queries(tx))), close: () => db.close() };
  return reopenable(db, dataDir);
}

/**
 * A directory's database that can be opened afresh in place. PGlite keeps its own picture of the directory (the
 * Emscripten file tree): after a refused file access (a read-only or full directory) that picture keeps an entry for
 * a file that is not on disk, so the instance keeps refusing ("could not create file …: File exists") after the
 * directory is writable again. A new instance reads the directory as it is; what was committed is all there.
 */
function reopenable(first: PGlite, dataDir: string): SqlClient {
  let current = first;
  // Settles once a reopen has ended (either way): every use waits for it, so nothing runs on a closing instance.
  let ready: Promise<unknown> = Promise.resolve();
  const use = async (): Promise<PGlite> => {
    await ready;
    return current;
  };
  return {
    query: async (sql, params) => queries(await use()).query(sql, params),
    exec: async (sql) => queries(await use()).exec(sql),
    transaction: async (work) => (await use()).transaction((tx) => work(queries(tx))),
    close: async () => {
      await ready;
      if (!current.closed) await current.close();
    },
    reopen: () => {
      const run = ready.then(async () => {
        // close() waits for the instance's queries and transactions in flight; a broken instance may refuse to close.
        await current.close().catch(() => undefined);
        const next = new PGlite(dataDir);
        await next.waitReady;
        current = next;
      });
      ready = run.catch(() => undefined);
      return run;
    },
  };
}

async function openDirectory(dataDir: string, options: OpenPgliteOptions): Promise<PGlite> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return new PGlite(dataDir);
  const template = templatePath(options.cacheDir);
  if (existsSync(template)) {
    options.onInitialising?.('template');
    const db = new PGlite(dataDir, { loadDataDir: new Blob([readFileSync(template)]) });
    await db.waitReady;
    return db;
  }
  options.onInitialising?.('initdb');
  const db = new PGlite(dataDir);
  await db.waitReady;
  // Kept for the next new directory; a cache that cannot be written only costs the next first start its speed.
  try {
    const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    mkdirSync(dirname(template), { recursive: true });
    const tmp = `${template}.${process.pid}.tmp`;
    writeFileSync(tmp, dump);
    renameSync(tmp, template);
  } catch {
    // Best effort.
  }
  return db;
}

/** The template's file, named by PGlite's version (a data directory of another version would not open). */
export function templatePath(cacheDir?: string): string {
  const base =
    cacheDir ??
    (process.env.STABLEPAY_CACHE_DIR || undefined) ??
    join(
      process.env.XDG_CACHE_HOME && process.env.XDG_CACHE_HOME !== '' ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache'),
      'stablepay',
    );
  return join(base, `pglite-${pgliteVersion()}-template.tar.gz`);
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
