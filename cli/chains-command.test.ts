import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ChainsFile } from '@stablepay/chains/chains-file';

const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, [bin, 'chains', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function chainIdAt(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
    });
    return Number(((await res.json()) as { result: string }).result);
  } catch {
    return undefined;
  }
}

describe('stablepay chains', () => {
  it('prints the chains file as JSON, writes it, serves every chain in it, and stops them all on SIGINT', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'stablepay-chains-test-')), 'chains.json');
    const chains = run(['--json', '--out', out]);
    const file = await new Promise<ChainsFile>((resolve, reject) => {
      chains.child.stdout.on('data', () => {
        try {
          resolve(JSON.parse(chains.stdout()) as ChainsFile);
        } catch {
          // not all of it yet
        }
      });
      void chains.exited.then((code) => reject(new Error(`exited ${code}: ${chains.stderr()}`)));
    });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(file);
    expect(file.chains.map((c) => c.chainId)).toEqual([1, 42161, 8453, 137, 56]);
    for (const chain of file.chains) expect(await chainIdAt(chain.rpcUrl)).toBe(chain.chainId);
    chains.child.kill('SIGINT');
    expect(await chains.exited).toBe(0);
    for (const chain of file.chains) expect(await chainIdAt(chain.rpcUrl)).toBeUndefined();
  });

  it('exits 2 with one sentence for a malformed --fork, and for a fork URL nothing answers', async () => {
    const malformed = run(['--fork', '8453']);
    // Code and message together, so a failure shows what the command said.
    expect({ code: await malformed.exited, stderr: malformed.stderr().trim() }).toEqual({
      code: 2,
      stderr: 'stablepay chains: --fork takes <chainId>=<rpcUrl>, got "8453"',
    });
    const unreachable = run(['--fork', '8453=http://127.0.0.1:1']);
    expect({ code: await unreachable.exited, stderr: unreachable.stderr() }).toMatchObject({ code: 2 });
    expect(unreachable.stderr().trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr()).toMatch(/^stablepay chains: Anvil for chain 8453 did not start/);
  });
});
