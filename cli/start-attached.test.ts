// `stablepay start` as a black-box target: given chains through the environment, it settles on them and starts none.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChains, type TestChains } from '@stablepay/chains/start-test-chains';

const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));

describe('stablepay start --no-control with STABLEPAY_RPC_URL_* / STABLEPAY_CHAINS_FILE', () => {
  let chains: TestChains;
  beforeAll(async () => {
    chains = await startTestChains({ filePath: join(mkdtempSync(join(tmpdir(), 'stablepay-attached-')), 'chains.json') });
  });
  afterAll(() => chains?.stop());

  it('attaches to the chains it is given, serves payments on them, and leaves them running when it stops', async () => {
    const child = spawn(process.execPath, [bin, 'start', '--port', '0', '--no-control', '--no-demo-payment'], {
      env: { ...process.env, ...chains.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => output.includes('Configure a webhook endpoint') && resolve());
      void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const printed = [...output.matchAll(/chainId (\d+)\s+(http:\/\/\S+)/g)].map((m) => [Number(m[1]), m[2]]);
    expect(printed).toEqual(chains.file.chains.map((c) => [c.chainId, c.rpcUrl]));
    expect(output).toContain('Control API    (disabled)');
    const baseUrl = /Base URL\s+(\S+)/.exec(output)![1]!;
    const key = /Default API key \(shown only now\): (\S+)/.exec(output)![1]!;
    const created = await fetch(`${baseUrl}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10.00', currency: 'USD' }),
    });
    expect(created.status).toBe(201);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await chains.network.chain(8453).publicClient.getChainId()).toBe(8453);
  });
});
