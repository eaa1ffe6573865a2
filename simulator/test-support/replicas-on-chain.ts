// Two in-process replicas A and B (`startServer`) on one throw-away Postgres database and one Anvil chain, with a SQL
// client of the test's own on that database: the setup the replica tests with a chain share
// (`runtime/sql-store/replicas-page.test.ts`, `replicas-lost-outcome.test.ts`, `replicas-settlement.test.ts`).
import type { ChainNetwork } from '@stablepay/chains/build-chain-network';
import { startChainNetwork } from '@stablepay/chains/start-chain-network';
import { type RunningServer, type ServerOptions, startServer } from '../runtime/server.ts';
import { openPostgres } from '../runtime/sql-store/postgres-client.ts';
import type { SqlClient } from '../runtime/sql-store/sql-client.ts';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster.ts';

export interface ReplicasOnChain {
  cluster: PostgresCluster;
  network: ChainNetwork;
  /** The database both replicas share. */
  url: string;
  /** The test's own client on that database (two connections). */
  db: SqlClient;
  a: RunningServer;
  b: RunningServer;
  /** Stops both replicas, the client, the chain and the cluster (whatever of them started). */
  stop(): Promise<void>;
}

const quiet = { info: () => undefined, error: () => undefined };

/**
 * Starts the cluster and the chain side by side, then A and B one after the other (as a second replica joins a running
 * one): both with `options` (port 0, `key` as the default key, a pool of 4, the chain's RPC URL, a quiet logger by
 * default), A with `a` and B with `b` on top.
 */
export async function startReplicasOnChain(params: {
  database: string;
  chainId: number;
  key: string;
  options?: ServerOptions;
  a?: ServerOptions;
  b?: ServerOptions;
}): Promise<ReplicasOnChain> {
  const started: Partial<ReplicasOnChain> = {};
  const stop = async () => {
    await started.a?.close();
    await started.b?.close();
    await started.db?.close();
    await started.network?.stop();
    started.cluster?.stop();
  };
  try {
    [started.cluster, started.network] = await Promise.all([
      startPostgresCluster(),
      startChainNetwork({ chains: [params.chainId], logger: quiet }),
    ]);
    started.url = started.cluster.createDatabase(params.database);
    const shared: ServerOptions = {
      port: 0,
      defaultApiKey: params.key,
      logger: quiet,
      databaseUrl: started.url,
      databasePoolSize: 4,
      chains: { rpcUrls: new Map([[params.chainId, started.network.chain(params.chainId).rpcUrl]]) },
      ...params.options,
    };
    started.a = await startServer({ ...shared, ...params.a });
    started.b = await startServer({ ...shared, ...params.b });
    started.db = await openPostgres(started.url, { poolSize: 2 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...(started as Omit<ReplicasOnChain, 'stop'>), stop };
}
