// A throw-away Postgres cluster for tests, from the system's binaries (Debian's `postgresql` package; `.ci/run`
// installs it when missing): initdb into a temporary directory, a free port on 127.0.0.1, started with pg_ctl as
// the `postgres` user when we are root (initdb refuses root), stopped and deleted by stop(). restart() and
// stopServer()/startServer() let a test take the database away and give it back. Never skipped: a machine without
// the binaries fails the test with the sentence saying what to install.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const POSTGRES_ROOT = '/usr/lib/postgresql';

export interface PostgresCluster {
  /** postgres://stablepay@127.0.0.1:<port>/postgres (trust authentication: no password). */
  url: string;
  port: number;
  /** A fresh database of the cluster, for tests that must not see each other's tables. */
  createDatabase(name: string): string;
  /** The server stops (fast shutdown), as a database taken down for maintenance. */
  stopServer(): void;
  /** The server starts again on the same port and data. */
  startServer(): void;
  /** Stops the server (if running) and deletes the cluster. */
  stop(): void;
  /** The server's log, for a failing test's message. */
  log(): string;
}

/** The newest installed Postgres' bin directory, or a sentence saying what to install. */
export function postgresBinDir(): string {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((v) => existsSync(join(POSTGRES_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined)
    throw new Error(
      `no Postgres server binaries under ${POSTGRES_ROOT} (install Debian's postgresql package: apt-get install -y postgresql)`,
    );
  return join(POSTGRES_ROOT, newest, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const root = mkdtempSync(join(tmpdir(), 'stablepay-pg-'));
  const data = join(root, 'data');
  const logFile = join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(root, uid, gid);
  }
  chmodSync(root, 0o700);
  /** Runs a Postgres binary, as the postgres user when we are root. */
  const run = (tool: string, args: string[]): void => {
    const command = join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-U', 'stablepay', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const start = (): void =>
    run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', '-o', `-p ${port} -k ${root} -c listen_addresses=127.0.0.1`, 'start']);
  const stopServer = (): void => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Already stopped.
    }
  };
  try {
    start();
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`the Postgres server did not start: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const url = `postgres://stablepay@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    createDatabase(name) {
      run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'stablepay', '-d', 'postgres', '-c', `CREATE DATABASE "${name}"`]);
      return `postgres://stablepay@127.0.0.1:${port}/${name}`;
    },
    stopServer,
    startServer: start,
    stop() {
      stopServer();
      rmSync(root, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}
