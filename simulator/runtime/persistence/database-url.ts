// Durable mode on a Postgres server (--database-url, STABLEPAY_DATABASE_URL): the same store and schema as the
// embedded database of --state-dir, migrations applied at start. A server that cannot be reached, or refuses the
// login, is one sentence (DatabaseOpenError: exit 1), the password never in it.
import { openPostgres, printableDatabaseUrl } from '../sql-store/postgres-client.ts';
import { DatabaseOpenError } from '../sql-store/pglite-client.ts';
import { SqlDurableState } from '../sql-store/sql-durable-state.ts';

export const DEFAULT_DATABASE_POOL_SIZE = 10;

export async function openDatabaseUrl(
  url: string,
  options: { poolSize?: number; deliveryLeaseMs?: number } = {},
): Promise<SqlDurableState> {
  const client = await openPostgres(url, { poolSize: options.poolSize ?? DEFAULT_DATABASE_POOL_SIZE });
  try {
    // A server may be shared by several simulators: each catches up with the others' commits before it answers.
    return await SqlDurableState.open(client, `the database at ${printableDatabaseUrl(url)}`, {
      shared: true,
      ...(options.deliveryLeaseMs !== undefined ? { deliveryLeaseMs: options.deliveryLeaseMs } : {}),
    });
  } catch (error) {
    await client.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseOpenError(`cannot use the database at ${printableDatabaseUrl(url)}: ${reason.split('\n')[0]}`);
  }
}
