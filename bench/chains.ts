// Chain layer benchmarks: cold start of the five chains with every contract, settlement latency (submit to
// receipt) through the web3 proxy, and user operations per second through the proxy handler.
// Run: npx tsx bench/chains.ts [--runs 5] [--ops 60] [--readme]   (--readme rewrites its section of bench/README.md)
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { Address } from 'viem';
import {
  buildSettlementUserOperation,
  createCustomerAccount,
  fundAccount,
  startChainNetwork,
  submitAndSettle,
  type ChainNetwork,
  type UserOperationV07,
} from '@stablepay/chains';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { createWeb3Proxy, type Web3Proxy } from '@stablepay/chains/rpc-proxy';
import { formatUserOperationRequest } from 'viem/account-abstraction';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 5);
const OPS = arg('--ops', 60);
const PAIRS: [number, TokenSymbol][] = [
  [1, 'USDT'],
  [42161, 'USDC'],
  [8453, 'USDC'],
  [137, 'USDT'],
  [56, 'USDT'],
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;
const ms = (x: number): string => x.toFixed(1);
let addressCounter = 0;
const merchant = (): Address => `0x${(0xbe0c4000000n + BigInt(++addressCounter)).toString(16).padStart(40, '0')}`;

async function coldStart(): Promise<{ start: number[]; stop: number[] }> {
  const start: number[] = [];
  const stop: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const network = await startChainNetwork();
    start.push(performance.now() - t0);
    const t1 = performance.now();
    await network.stop();
    stop.push(performance.now() - t1);
  }
  return { start, stop };
}

async function prepare(
  network: ChainNetwork,
  proxy: Web3Proxy,
  chainId: number,
  token: TokenSymbol,
  email: string,
): Promise<UserOperationV07> {
  const account = await createCustomerAccount(network, { chainId, email });
  const unit = 10n ** BigInt(network.tokenDecimals(chainId, token));
  await fundAccount(network, chainId, token, account.address, 1_000n * unit);
  const built = await buildSettlementUserOperation({
    network,
    proxy,
    account,
    token,
    transfers: [
      { to: merchant(), amountUnits: 99n * unit },
      { to: network.feeCollector, amountUnits: unit / 2n },
    ],
  });
  return built.userOperation;
}

interface LatencyRow {
  chainId: number;
  token: TokenSymbol;
  buildMedian: number;
  settleMedian: number;
  settleP95: number;
}

async function latency(network: ChainNetwork, proxy: Web3Proxy): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const n = Math.max(5, Math.floor(OPS / 4));
  for (const [chainId, token] of PAIRS) {
    const build: number[] = [];
    const settle: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const op = await prepare(network, proxy, chainId, token, `latency-${chainId}-${i}@bench.example`);
      build.push(performance.now() - t0);
      const t1 = performance.now();
      const { settlement } = await submitAndSettle(proxy, chainId, op);
      settle.push(performance.now() - t1);
      if (!settlement.success) throw new Error(`bench settlement failed on ${chainId}: ${settlement.revertReason}`);
    }
    rows.push({ chainId, token, buildMedian: median(build), settleMedian: median(settle), settleP95: pct(settle, 95) });
  }
  return rows;
}

async function throughput(
  network: ChainNetwork,
  proxy: Web3Proxy,
  pairs: [number, TokenSymbol][],
  label: string,
): Promise<{ label: string; ops: number; seconds: number; opsPerSecond: number }> {
  const perChain = Math.max(1, Math.floor(OPS / pairs.length));
  const prepared: [number, UserOperationV07][] = [];
  for (const [chainId, token] of pairs) {
    for (let i = 0; i < perChain; i++)
      prepared.push([chainId, await prepare(network, proxy, chainId, token, `tput-${label}-${chainId}-${i}@bench.example`)]);
  }
  const t0 = performance.now();
  const responses = await Promise.all(
    prepared.map(([chainId, op], i) =>
      proxy.handle(
        chainId,
        JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'eth_sendUserOperation',
          params: [formatUserOperationRequest(op), network.entryPoint],
        }),
      ),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  const failed = responses.filter((r) => (r.body as { error?: unknown }).error);
  if (failed.length > 0) throw new Error(`${failed.length} user operations were rejected: ${JSON.stringify(failed[0]?.body)}`);
  return { label, ops: prepared.length, seconds, opsPerSecond: prepared.length / seconds };
}

const loadBefore = os.loadavg()[0]?.toFixed(1) ?? '?';
const cold = await coldStart();
const network = await startChainNetwork();
const proxy = createWeb3Proxy(network);
let latencyRows: LatencyRow[];
let tputRows: Awaited<ReturnType<typeof throughput>>[];
try {
  latencyRows = await latency(network, proxy);
  tputRows = [
    await throughput(network, proxy, [[8453, 'USDC']], 'one chain (Base USDC)'),
    await throughput(network, proxy, PAIRS, 'five chains at once'),
  ];
} finally {
  await network.stop();
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${loadBefore} at start, ${new Date().toISOString().slice(0, 10)}`;
const tables = [
  `Cold start of all five chains with every contract (baked state, --load-state), ${RUNS} runs:`,
  '',
  '| | median (ms) | min (ms) | max (ms) |',
  '|---|---:|---:|---:|',
  `| startChainNetwork() until all five answer | ${ms(median(cold.start))} | ${ms(Math.min(...cold.start))} | ${ms(Math.max(...cold.start))} |`,
  `| stop() until every process is gone | ${ms(median(cold.stop))} | ${ms(Math.min(...cold.stop))} | ${ms(Math.max(...cold.stop))} |`,
  '',
  'Settlement of one user operation from a new customer account (account deployment + approve + 2 transfers + gas charge), one at a time:',
  '',
  '| chain | token | fund + build incl. estimate (ms, median) | submit to settled receipt (ms, median) | p95 (ms) |',
  '|---:|---|---:|---:|---:|',
  ...latencyRows.map((r) => `| ${r.chainId} | ${r.token} | ${ms(r.buildMedian)} | ${ms(r.settleMedian)} | ${ms(r.settleP95)} |`),
  '',
  'Throughput of `eth_sendUserOperation` through the proxy handler (operations signed beforehand, all sent at once; each is its own handleOps transaction, bundles of a chain are sequential):',
  '',
  '| scenario | operations | seconds | user operations / s |',
  '|---|---:|---:|---:|',
  ...tputRows.map((r) => `| ${r.label} | ${r.ops} | ${r.seconds.toFixed(2)} | ${r.opsPerSecond.toFixed(1)} |`),
].join('\n');
console.log(tables);

if (process.argv.includes('--readme')) {
  const README = new URL('./README.md', import.meta.url);
  const START = '<!-- bench:chains:start -->';
  const END = '<!-- bench:chains:end -->';
  const section = [START, `Machine: ${machine}.`, '', tables, END].join('\n');
  const readme = readFileSync(README, 'utf8');
  writeFileSync(
    README,
    readme.includes(START)
      ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
      : `${readme.trimEnd()}\n\n## Chains: start, settlement, user operations\n\n${section}\n`,
  );
}
