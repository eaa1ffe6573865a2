// Cold start, side by side in one run: five bare Anvil processes from the baked state (spawned directly, ready when
// eth_chainId answers) versus what `stablepay chains` does (the same five through @viem/anvil with the watchdog,
// plus writing the chains file; the test accounts are funded in the baked state). Run: npx tsx bench/chains-cold-start.ts [rounds]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAIN_IDS } from '@stablepay/contract/chain-table';
import { chainStateDir } from '@stablepay/chains/paths';
import { resolveAnvilBinary } from '@stablepay/chains/resolve-anvil-binary';
import { startChainNetwork } from '@stablepay/chains/start-chain-network';
import { startTestChains } from '@stablepay/chains/start-test-chains';

const rounds = Number(process.argv[2] ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function bareAnvil(chainId: number): Promise<ChildProcess> {
  const child = spawn(
    resolveAnvilBinary(),
    ['--port', '0', '--chain-id', String(chainId), '--accounts', '0', '--load-state', join(chainStateDir, `${chainId}.json`)],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const port = await new Promise<number>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Listening on [\d.]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
      });
      if (res.ok) return child;
    } catch {
      // not yet
    }
  }
}

const results = { bare: [] as number[], network: [] as number[], chainsCommand: [] as number[] };
for (let round = 0; round < rounds; round++) {
  let t = performance.now();
  const children = await Promise.all(CHAIN_IDS.map(bareAnvil));
  results.bare.push(performance.now() - t);
  for (const c of children) c.kill('SIGKILL');

  t = performance.now();
  const network = await startChainNetwork();
  results.network.push(performance.now() - t);
  await network.stop();

  t = performance.now();
  const chains = await startTestChains({ filePath: join(mkdtempSync(join(tmpdir(), 'stablepay-bench-')), 'chains.json') });
  results.chainsCommand.push(performance.now() - t);
  await chains.stop();
}
console.log(`| five chains, ${rounds} rounds | median | min | max |\n|---|---|---|---|`);
for (const [name, xs] of [
  ['bare Anvil x5 (spawn, until eth_chainId answers)', results.bare],
  ['startChainNetwork() through @viem/anvil + watchdog', results.network],
  ['`stablepay chains` work: + write chains file (test accounts funded in the baked state)', results.chainsCommand],
] as const) {
  console.log(`| ${name} | ${ms(median(xs))} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} |`);
}
