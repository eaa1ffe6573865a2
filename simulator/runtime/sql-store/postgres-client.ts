// A Postgres server (--database-url) as a SqlClient, through node-postgres (`pg`): the most used Postgres client for
// Node, pure JavaScript (no native build), with a pool whose size is a flag, and the server's SQLSTATE on every
// error (`error.code`), which the store reads to tell a refused row or a full disk from a server that is down.
// A transaction holds one pooled connection from BEGIN to COMMIT; a connection the server dropped is thrown away.
import pg from 'pg';
import type { SqlClient, SqlQueries, SqlResult } from './sql-client.ts';
import { DatabaseOpenError } from './pglite-client.ts';

export interface PostgresOptions {
  /** Connections in the pool (--database-pool-size). */
  poolSize: number;
  /** How long a start waits for the server before it gives up (default 10 s). */
  connectTimeoutMs?: number;
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

function queries(db: Queryable): SqlQueries {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<SqlResult<Row>> {
      const result = await db.query(sql, params);
      return { rows: result.rows as Row[], affectedRows: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await db.query(sql);
    },
  };
}

/** The URL with its password masked, for messages. */
export function printableDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database URL';
  }
}

/** Connects (one query to prove it) or throws DatabaseOpenError in one sentence. */
export async function openPostgres(url: string, options: PostgresOptions): Promise<SqlClient> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // The durable state's commits are short; a statement stuck for a minute is a server in trouble.
    statement_timeout: 60_000,
  });
  // An idle connection the server closes (a restart) is an error event of the pool: dropped, the next query opens another.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseOpenError(
      `cannot reach the database at ${printableDatabaseUrl(url)}: ${reason.split('\n')[0] || (error as { code?: string }).code}`,
    );
  }
  return {
    ...queries(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(queries(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = error;
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection whose ROLLBACK failed is not given back to the pool.
        client.release(broken !== undefined && isConnectionError(broken) ? (broken as Error) : undefined);
      }
    },
    close: () => pool.end(),
    listen: (channel, heard) => listenFor(url, channel, heard),
  };
}

/** The longest wait before the listening connection is opened again (the wait doubles from 250 ms). */
const MAX_RELISTEN_WAIT_MS = 8000;

/**
 * LISTEN on a connection outside the pool (a pooled one would be handed to a transaction); when it drops (a server
 * restart, a network cut) it is opened again after a growing wait, and `heard(undefined)` says notifications may
 * have been missed.
 */
function listenFor(url: string, channel: string, heard: (payload: string | undefined) => void): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let waitMs = 250;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    client = next;
    let dropped = false;
    const drop = (): void => {
      if (dropped) return;
      dropped = true;
      void next.end().catch(() => undefined);
      if (stopped) return;
      retry = setTimeout(() => void connect(), waitMs);
      retry.unref();
      waitMs = Math.min(MAX_RELISTEN_WAIT_MS, waitMs * 2);
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', (message) => {
      if (message.channel === channel) heard(message.payload);
    });
    try {
      await next.connect();
      // The channel name is ours (a constant), never input: quoted as an identifier all the same.
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (stopped) return void next.end().catch(() => undefined);
      waitMs = 250;
      heard(undefined);
    } catch {
      drop();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/** Errors that mean the connection is gone (a socket error, or SQLSTATE class 08 or 57P), not a refused statement. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P');
}
