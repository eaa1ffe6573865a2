// Spawns Stoplight Prism (node_modules/.bin/prism) on a free port and waits until it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRISM = `${ROOT}node_modules/.bin/prism`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PrismProcess {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `args` e.g. ['mock', 'openapi.yaml'] or ['proxy', 'openapi.yaml', upstream, '--errors']. */
export async function startPrism(args: string[], timeoutMs = 90_000): Promise<PrismProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(PRISM, [...args, '-h', '127.0.0.1', '-p', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const deadline = Date.now() + timeoutMs;
  while (!output.includes('Prism is listening')) {
    if (child.exitCode !== null) throw new Error(`prism exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prism did not start within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
