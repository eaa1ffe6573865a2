// A real `stablepay start` process on a shared database, for the replica tests that SIGKILL one: started on a free
// port without a demo payment, with the given key and options; resolves with its base URL once its banner is out.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));

export interface CliReplica {
  child: ChildProcess;
  baseUrl: string;
}

/** `stablepay start --port 0 --quiet --no-demo-payment --api-key <key> --database-url <url> …args`, env added to ours. */
export function startCliReplica(options: {
  apiKey: string;
  databaseUrl: string;
  args?: string[];
  env?: Record<string, string>;
}): Promise<CliReplica> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'start',
      '--port',
      '0',
      '--quiet',
      '--no-demo-payment',
      '--api-key',
      options.apiKey,
      '--database-url',
      options.databaseUrl,
      ...(options.args ?? []),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Only what the test says: no key, state dir or database from the caller's environment.
      env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_STATE_DIR: '', STABLEPAY_DATABASE_URL: '', ...options.env },
    },
  );
  let output = '';
  return new Promise<CliReplica>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = /Base URL\s+(\S+)/.exec(output);
      if (match && output.includes('Configure a webhook endpoint')) resolve({ child, baseUrl: match[1] as string });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => reject(new Error(`the replica exited before its banner:\n${output}`)));
  });
}
