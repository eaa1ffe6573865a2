import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnvilStartError } from '../errors.ts';
import { chainStateDir } from '../paths.ts';
import { spawnAnvil } from './spawn-anvil.ts';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntilGone(pid: number, attempts = 200): Promise<boolean> {
  for (let i = 0; i < attempts && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  return !isAlive(pid);
}

describe('spawnAnvil (through @viem/anvil)', () => {
  it('serves the baked state on a port Anvil chose, and stops both the watchdog and anvil', async () => {
    const anvil = await spawnAnvil({ chainId: 8453, loadStatePath: join(chainStateDir, '8453.json') });
    expect(anvil.port).toBeGreaterThan(0);
    expect(anvil.pid).not.toBe(anvil.supervisorPid);
    const res = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(await res.json()).toMatchObject({ result: '0x2105' });
    await anvil.stop();
    expect(isAlive(anvil.pid)).toBe(false);
    expect(await waitUntilGone(anvil.supervisorPid)).toBe(true);
  });

  it('reports a failed start with the tail of what Anvil printed', async () => {
    const failure = spawnAnvil({ chainId: 1, loadStatePath: '/nonexistent/state.json' });
    await expect(failure).rejects.toThrow(AnvilStartError);
    await expect(failure).rejects.toThrow(/state\.json|No such file/i);
  });

  it('leaves no orphan when the parent process is killed with SIGKILL', async () => {
    // A parent that starts a chain, prints its pids and then waits to be killed.
    const script = [
      `import { spawnAnvil } from ${JSON.stringify(new URL('./spawn-anvil.ts', import.meta.url).href)};`,
      `const a = await spawnAnvil({ chainId: 137, loadStatePath: ${JSON.stringify(join(chainStateDir, '137.json'))} });`,
      'console.log(JSON.stringify({ pid: a.pid, watchdog: a.supervisorPid }));',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(parent.stdout, 'data')) as [Buffer];
    const { pid, watchdog } = JSON.parse(line.toString()) as { pid: number; watchdog: number };
    expect(isAlive(pid)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitUntilGone(pid)).toBe(true);
    expect(await waitUntilGone(watchdog)).toBe(true);
  });
});
