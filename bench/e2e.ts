// End to end through the chain-backed simulator on a real HTTP port (`stablepay start` minus the CLI): the merchant
// creates a payment (POST /v1/payments), the customer signs in at the checkout, prepares (faucet funding + the one
// user operation), signs the userOpHash and sends eth_sendUserOperation to POST /v1/web3/{chainId} with the checkout
// token; the merchant polls GET /v1/payments/{id} until SUCCESSFUL. Bundle delay 0 (the page default is 0–500 ms).
// Run: npx tsx bench/e2e.ts [--payments 50] [--ops 100] [--concurrency 16] [--readme]
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { Agent, request } from 'undici';
import { privateKeyToAccount } from 'viem/accounts';
import type { CheckoutService } from '@stablepay/simulator/checkout';
import { startServer } from '@stablepay/simulator/server';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PAYMENTS = arg('--payments', 50);
const OPS = arg('--ops', 100);
const CONCURRENCY = arg('--concurrency', 16);
const KEY = 'pk_benche2e000000000000000000000000000000000000000000';
const PAIRS = [
  { chainId: 1, token: 'USDT' },
  { chainId: 42161, token: 'USDC' },
  { chainId: 8453, token: 'USDC' },
  { chainId: 137, token: 'USDT' },
  { chainId: 56, token: 'USDT' },
] as const;
type Pair = (typeof PAIRS)[number];

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((xs.length * p) / 100) - 1)] ?? NaN;
const ms = (x: number): string => x.toFixed(1);

const loadBefore = os.loadavg()[0]?.toFixed(1) ?? '?';
const quiet = { info() {}, error: (m: string, e?: unknown) => console.error(m, e) };
const server = await startServer({
  port: 0,
  chains: true,
  bundleDelayMs: 0,
  defaultApiKey: KEY,
  rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
  logger: quiet,
});
const checkout = server.simulator.checkout as CheckoutService;
const agent = new Agent({ connections: 64 });

async function http(method: string, path: string, body?: unknown, key = KEY): Promise<any> {
  const res = await request(`${server.url}${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.body.json()) as any;
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${JSON.stringify(json)}`);
  return json;
}

interface Signed {
  id: string;
  pair: Pair;
  token: string;
  body: unknown;
}

/** Merchant creates; the customer signs in, prepares and signs (what the hosted page does before sending). */
async function createAndSign(pair: Pair, label: string): Promise<Signed & { createdMs: number; preparedMs: number }> {
  const t0 = performance.now();
  const created = await http('POST', '/v1/payments', { amount: '42.50', currency: 'EUR', externalId: label });
  const t1 = performance.now();
  const { checkoutToken, ownerPrivateKey } = await checkout.signIn(created.id, { email: `${label}@bench.example` });
  const prepared = await checkout.prepare(checkoutToken, pair);
  const signature = await privateKeyToAccount(ownerPrivateKey).signMessage({ message: { raw: prepared.userOpHash } });
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_sendUserOperation',
    params: [{ ...prepared.userOperation, signature }, prepared.entryPoint],
  };
  return { id: created.id, pair, token: checkoutToken, body, createdMs: t1 - t0, preparedMs: performance.now() - t1 };
}

async function send(s: Signed): Promise<void> {
  const reply = await http('POST', `/v1/web3/${s.pair.chainId}`, s.body, s.token);
  if (reply.error) throw new Error(`eth_sendUserOperation refused: ${JSON.stringify(reply.error)}`);
}

async function latency(): Promise<{ total: number[]; create: number[]; prepare: number[]; accept: number[]; settle: number[] }> {
  const out = { total: [] as number[], create: [] as number[], prepare: [] as number[], accept: [] as number[], settle: [] as number[] };
  for (let i = 0; i < PAYMENTS; i++) {
    const t0 = performance.now();
    const signed = await createAndSign(PAIRS[i % PAIRS.length] as Pair, `lat-${i}`);
    const t1 = performance.now();
    await send(signed);
    const t2 = performance.now();
    for (;;) {
      const p = await http('GET', `/v1/payments/${signed.id}`);
      if (p.status === 'SUCCESSFUL') break;
      if (p.status !== 'PROCESSING') throw new Error(`payment ${signed.id} ended ${p.status}: ${JSON.stringify(p.error)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    const t3 = performance.now();
    out.total.push(t3 - t0);
    out.create.push(signed.createdMs);
    out.prepare.push(signed.preparedMs);
    out.accept.push(t2 - t1);
    out.settle.push(t3 - t2);
  }
  return out;
}

async function throughput(
  pairs: readonly Pair[],
  label: string,
): Promise<{ label: string; ops: number; acceptPerSecond: number; settlePerSecond: number }> {
  const signed: Signed[] = [];
  for (let i = 0; i < OPS; i++)
    signed.push(await createAndSign(pairs[i % pairs.length] as Pair, `tput-${label.replace(/\W+/g, '')}-${i}`.slice(0, 36)));
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < signed.length) await send(signed[next++] as Signed);
    }),
  );
  const accepted = performance.now();
  // Completion is read in-process so polling does not load the server being measured.
  while (signed.some((s) => server.simulator.payments.store.get(s.id)?.status !== 'SUCCESSFUL')) {
    const failed = signed.find((s) => ['FAILED', 'EXPIRED', 'CANCELLED'].includes(server.simulator.payments.store.get(s.id)?.status ?? ''));
    if (failed) throw new Error(`payment ${failed.id} did not succeed`);
    await new Promise((r) => setTimeout(r, 1));
  }
  const settled = performance.now();
  return { label, ops: OPS, acceptPerSecond: OPS / ((accepted - t0) / 1000), settlePerSecond: OPS / ((settled - t0) / 1000) };
}

let lat: Awaited<ReturnType<typeof latency>>;
let tput: Awaited<ReturnType<typeof throughput>>[];
try {
  await createAndSign(PAIRS[2], 'warm-up').then(send); // first estimate loads artifacts and code caches
  lat = await latency();
  tput = [await throughput([PAIRS[2]], 'one chain (Base USDC)'), await throughput(PAIRS, 'five chains at once')];
} finally {
  await server.close();
  await agent.close();
}

const row = (name: string, xs: number[]) => `| ${name} | ${ms(pct(xs, 50))} | ${ms(pct(xs, 95))} | ${ms(Math.max(...xs))} |`;
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${loadBefore} at start, ${new Date().toISOString().slice(0, 10)}`;
const tables = [
  `Create to SUCCESSFUL through the real path, ${PAYMENTS} payments one after another, round-robin over the five chains (new customer account each: faucet funding, account deployment, approve, 2 transfers, gas charge):`,
  '',
  '| step | p50 (ms) | p95 (ms) | max (ms) |',
  '|---|---:|---:|---:|',
  row('**create → SUCCESSFUL**', lat.total),
  row('POST /v1/payments', lat.create),
  row('checkout sign-in + prepare (fund, estimate, build) + sign', lat.prepare),
  row('POST /v1/web3 eth_sendUserOperation (validate, accept: PROCESSING)', lat.accept),
  row('accepted → SUCCESSFUL seen by GET polling (bundle, receipt)', lat.settle),
  '',
  `User operations through POST /v1/web3/{chainId} over HTTP (${OPS} signed beforehand, ${CONCURRENCY} in flight; every operation is its own handleOps transaction, bundles of one chain are sequential):`,
  '',
  '| scenario | operations | accepted / s | settled (SUCCESSFUL) / s |',
  '|---|---:|---:|---:|',
  ...tput.map((r) => `| ${r.label} | ${r.ops} | ${r.acceptPerSecond.toFixed(1)} | ${r.settlePerSecond.toFixed(1)} |`),
].join('\n');
console.log(`Machine: ${machine}\n\n${tables}`);

if (process.argv.includes('--readme')) {
  const README = new URL('./README.md', import.meta.url);
  const START = '<!-- bench:e2e:start -->';
  const END = '<!-- bench:e2e:end -->';
  const section = [START, `Machine: ${machine}.`, '', tables, END].join('\n');
  const readme = readFileSync(README, 'utf8');
  writeFileSync(
    README,
    readme.includes(START)
      ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
      : `${readme.trimEnd()}\n\n## End to end: create to SUCCESSFUL on the chains\n\n${section}\n`,
  );
}
