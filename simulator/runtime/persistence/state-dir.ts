// The state directory of durable mode (--state-dir): an embedded PGlite database in `db/` (and the chains'
// checkpoints in `chains/`, written by the chain layer). Everything the directory can be wrong in is one sentence:
// not a directory or not creatable (StateDirError, a usage error), written by the journal of an earlier version
// (StateDirError: nothing reads it any more), or a database that will not open (DatabaseOpenError: exit 1).
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseOpenError, openPglite } from '../sql-store/pglite-client.ts';
import { SqlDurableState } from '../sql-store/sql-durable-state.ts';

/** The state directory cannot be used as one (a file, not creatable, an old journal): the CLI exits 2 with it. */
export class StateDirError extends Error {}

/** The journal files of versions before the database (never read now). */
const OLD_JOURNAL_FILES = ['journal.jsonl', 'snapshot.jsonl'];

export interface OpenStateDirOptions {
  /** Told when a new directory's database is being initialised (the slow part of a first start). */
  info?: (message: string) => void;
  /** Where PGlite's template is kept (pglite-client.ts). */
  cacheDir?: string;
}

export async function openStateDir(dir: string, options: OpenStateDirOptions = {}): Promise<SqlDurableState> {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new StateDirError(`state dir ${dir} is not a directory`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StateDirError(`state dir ${dir} cannot be created: ${(error as Error).message}`);
  }
  const old = OLD_JOURNAL_FILES.find((file) => existsSync(join(dir, file)));
  if (old)
    throw new StateDirError(
      `state dir ${dir} holds ${old}, the journal of a version before the database; start on a new directory (or run the earlier version to read it)`,
    );
  const dbDir = join(dir, 'db');
  if (existsSync(dbDir) && !statSync(dbDir).isDirectory()) throw new StateDirError(`state dir ${dir}: ${dbDir} is not a directory`);
  if (existsSync(dbDir) && readdirSync(dbDir).length > 0 && !existsSync(join(dbDir, 'PG_VERSION')))
    throw new DatabaseOpenError(`cannot open the database in ${dbDir}: it is not a database directory (no PG_VERSION)`);
  const client = await openPglite(dbDir, {
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    onInitialising: (how) =>
      options.info?.(
        how === 'template'
          ? `state dir: initialising the database in ${dbDir} from the template (a few seconds, first start only)`
          : `state dir: initialising the database in ${dbDir} (initdb: up to 20 s on the first start on this machine; later new directories copy a template)`,
      ),
  });
  try {
    return await SqlDurableState.open(client, `the database in ${dbDir}`);
  } catch (error) {
    await client.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseOpenError(`cannot open the database in ${dbDir}: ${reason.split('\n')[0]}`);
  }
}
