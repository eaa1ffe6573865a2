// Stopping works through the wrappers users start the simulator with. `npx stablepay start` and `npm start` run the
// command through `sh -c`; a signal sent to the npx/npm process must still stop the simulator and its five Anvil
// processes (before the fix, SIGTERM to npx left all six running with init as their parent).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BANNER_END = 'Configure a webhook endpoint';

function launch(command: string, args: string[]) {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (output.includes(BANNER_END)) resolve(output);
    });
    void exited.then((code) => reject(new Error(`exited ${code} before the banner:\n${output}`)));
  });
  return { child, ready, exited, output: () => output };
}

/** True once nothing accepts connections at `url` any more. */
async function closed(url: string): Promise<boolean> {
  try {
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
    });
    return false;
  } catch {
    return true;
  }
}

describe('stopping the simulator through npm and npx', () => {
  const npx = ['stablepay', 'start', '--port', '0', '--no-demo-payment'];
  it.each([
    { name: 'npx stablepay start', command: 'npx', args: npx, signal: 'SIGTERM' },
    { name: 'npx stablepay start', command: 'npx', args: npx, signal: 'SIGINT' },
    { name: 'npm start', command: 'npm', args: ['start', '--', '--port', '0', '--no-demo-payment'], signal: 'SIGTERM' },
    { name: 'npm start', command: 'npm', args: ['start', '--', '--port', '0', '--no-demo-payment'], signal: 'SIGINT' },
  ] as const)('$name: $signal to the npm process stops the simulator and its five chains', async ({ command, args, signal }) => {
    const run = launch(command, [...args]);
    const banner = await run.ready;
    const urls = [
      /Base URL\s+(\S+)/.exec(banner)?.[1] as string,
      ...[...banner.matchAll(/chainId \d+\s+(http:\/\/\S+)/g)].map((m) => m[1] as string),
    ];
    expect(urls).toHaveLength(6); // the simulator and its five chains
    for (const url of urls) expect(await closed(url)).toBe(false);
    run.child.kill(signal);
    await run.exited;
    for (const url of urls) await expect.poll(() => closed(url), { timeout: 20_000, interval: 200 }).toBe(true);
    expect(run.output()).toContain('shutting down');
  });
});
