// Self-test fixtures: the simulator served in-process on a free loopback port.
import { startServer, type RunningServer } from '@stablepay/simulator/server';

export const quietLogger = { info: () => {}, error: () => {} };

/** The self-test runs against the simulator as shipped: customer actions settle on the five chains. */
export async function startSimulator(): Promise<RunningServer> {
  return startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, chains: true });
}
