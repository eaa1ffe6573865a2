// Ports for a target the suite starts: a free one chosen by the kernel, or the user's, checked before anything starts.
import { createServer, type Server } from 'node:net';
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

function listening(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => resolve(server));
  });
}

/**
 * Ports this process has handed out: the kernel may give a port just closed to the next caller, and instances started
 * side by side (the spares of a black-box run) each pick one before either listens, so two once got the same port and
 * the second target exited with EADDRINUSE.
 */
const handedOut = new Set<number>();

/** A port nothing listens on right now (the target binds it a moment later), never one this process handed out before. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  // Each refused candidate stays bound until a new one is found, so the kernel cannot offer it again meanwhile.
  const held: Server[] = [];
  try {
    for (let attempt = 0; attempt < 64; attempt++) {
      const server = await listening(host);
      held.push(server);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      if (port > 0 && !handedOut.has(port)) {
        handedOut.add(port);
        return port;
      }
    }
    throw new TargetError(`no free port on ${host}: 64 candidates were all handed out already`);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

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

/** True when nothing listens on `port` now. */
export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    await listenOnce(port, host);
    return true;
  } catch {
    return false;
  }
}
