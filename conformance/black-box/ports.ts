// Ports for a target the suite starts: a free one chosen by the kernel, or the user's, checked before anything starts.
import { createServer } from 'node:net';
import { TargetError } from './target-errors.ts';

function listenOnce(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const chosen = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(chosen));
    });
  });
}

/** A port nothing listens on right now (the target binds it a moment later). */
export const freePort = (host = '127.0.0.1'): Promise<number> => listenOnce(0, host);

/** Throws a TargetError when something already listens on `port`. */
export async function ensurePortFree(port: number, host = '127.0.0.1'): Promise<void> {
  try {
    await listenOnce(port, host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TargetError(
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already taken, so the target cannot listen there: stop what holds it or choose another --target-port/--base-url`
        : `cannot check port ${port} on ${host}: ${(error as Error).message}`,
    );
  }
}
