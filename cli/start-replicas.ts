// `stablepay start --replicas N --database-url …`: N simulators on one database (each with its own pool, memory and
// timers, in this process) behind a round-robin balancer listening on --host/--port, so one command gives what a team
// gets from N processes behind their own balancer (docs/decisions.md, "Several processes on one database"). The
// replicas listen on free ports of --host; the pay page's links and the banner name the balancer.
import { startBalancer } from '@stablepay/simulator/balancer';
import { DEFAULTS } from '@stablepay/simulator/defaults';
import { type RunningServer, type ServerOptions, startServer } from '@stablepay/simulator/server';

export interface Replicas {
  /** The service as a client sees it: the balancer's URLs over the first replica's simulator. */
  front: RunningServer;
  /** Each replica's own base URL, in start order. */
  replicaUrls: string[];
}

export async function startReplicas(options: ServerOptions, count: number): Promise<Replicas> {
  const host = options.host ?? DEFAULTS.host;
  const balancer = await startBalancer({ host, port: options.port ?? DEFAULTS.port });
  const servers: RunningServer[] = [];
  const closeAll = async () => {
    await balancer.close();
    for (const server of servers) await server.close();
  };
  try {
    // One after the other: the first migrates the database and makes the default merchant, the others find it.
    for (let i = 0; i < count; i += 1) servers.push(await startServer({ ...options, port: 0, payUrl: options.payUrl ?? balancer.url }));
  } catch (error) {
    await closeAll();
    throw error;
  }
  balancer.targets = servers.map((server) => server.url);
  const first = servers[0] as RunningServer;
  const front: RunningServer = {
    get simulator() {
      return first.simulator;
    },
    url: balancer.url,
    payUrl: first.payUrl,
    controlUrl: first.controlUrl === null ? null : `${balancer.url}/control/v1`,
    controlExposure: first.controlExposure,
    stateStore: first.stateStore,
    close: closeAll,
  };
  return { front, replicaUrls: balancer.targets };
}
