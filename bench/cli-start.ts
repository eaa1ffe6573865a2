// How fast the command line answers: `stablepay --help`, and `npm start` / `stablepay start` to the end of their
// banner, next to the floor of what they do (`node -e 0`, five bare Anvil processes started at once), measured
// interleaved in one run so machine load hits every row alike.
// Run: npx tsx bench/cli-start.ts [--runs 10] [--baseline <package dir>] [--readme]
// (--baseline adds the same rows for another checkout, e.g. the previous version, measured in the same run;
// --readme rewrites its section of bench/README.md)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { resolveAnvilBinary } from '@stablepay/chains/resolve-anvil-binary';
import { packageRoot } from '@stablepay/contract/package-root';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('--runs') ?? 10);
const ROOT = packageRoot;
const BASELINE = arg('--baseline');
const BANNER_END = 'Configure a webhook endpoint';
const CHAIN_IDS = [1, 42161, 8453, 137, 56];

interface Started {
  /** Milliseconds from spawn to the awaited moment. */
  ms: number;
  stop(): Promise<void>;
}

/** Spawns a command in its own process group; resolves when `ready(output)` holds or the process exits 0. */
function time(command: string, args: string[], ready?: (output: string) => boolean, cwd = ROOT): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    // The whole group: npm, its shell, node and the anvils.
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGTERM');
    await exited;
  };
  let output = '';
  return new Promise((resolveStarted, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready?.(output)) resolveStarted({ ms: performance.now() - t0, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (!ready && code === 0) resolveStarted({ ms: performance.now() - t0, stop });
      else reject(new Error(`${command} ${args.join(' ')} exited ${code} before it was ready:\n${output}`));
    });
  });
}

async function fiveBareAnvils(): Promise<Started> {
  const binary = resolveAnvilBinary();
  const t0 = performance.now();
  const started = await Promise.all(
    CHAIN_IDS.map((id) =>
      time(binary, ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(id), '--accounts', '0'], (o) => o.includes('Listening on')),
    ),
  );
  return { ms: performance.now() - t0, stop: async () => void (await Promise.all(started.map((s) => s.stop()))) };
}

const banner = (o: string): boolean => o.includes(BANNER_END);
function cliRows(root: string, label: string): [string, () => Promise<Started>][] {
  const bin = resolve(root, 'bin/stablepay.js');
  return [
    [`stablepay --help${label}`, () => time(process.execPath, [bin, '--help'], undefined, root)],
    [`stablepay start to banner${label}`, () => time(process.execPath, [bin, 'start', '--port', '0'], banner, root)],
    [`npm start to banner${label}`, () => time('npm', ['start', '--', '--port', '0'], banner, root)],
  ];
}
const ROWS: [string, () => Promise<Started>][] = [
  ['node -e 0', () => time(process.execPath, ['-e', '0'])],
  ['bare Anvil ×5 (listening)', fiveBareAnvils],
  ...cliRows(ROOT, ''),
  ...(BASELINE ? cliRows(resolve(BASELINE), ' (baseline)') : []),
];

const samples = new Map<string, number[]>(ROWS.map(([name]) => [name, []]));
const loadBefore = os.loadavg()[0]!.toFixed(1);
for (let run = 0; run < RUNS; run++) {
  for (const [name, measure] of ROWS) {
    const started = await measure();
    await started.stop();
    samples.get(name)!.push(started.ms);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const anvils = median(samples.get('bare Anvil ×5 (listening)')!);
const lines = ['| what | median (ms) | min (ms) | max (ms) | × bare Anvil ×5 |', '|---|---:|---:|---:|---:|'];
for (const [name, xs] of samples) {
  const m = median(xs);
  lines.push(`| ${name} | ${m.toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | ${(m / anvils).toFixed(2)} |`);
}
const table = lines.join('\n');
console.log(
  `${BASELINE ? `baseline: ${resolve(BASELINE)}; ` : ''}${RUNS} runs each, interleaved; load average ${loadBefore} at start\n\n${table}`,
);

if (process.argv.includes('--readme')) {
  const README = new URL('./README.md', import.meta.url);
  const START = '<!-- bench:cli-start:start -->';
  const END = '<!-- bench:cli-start:end -->';
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, ${RUNS} runs of each row, interleaved, load average ${loadBefore} at start, ${new Date().toISOString().slice(0, 10)}`;
  const baseline = BASELINE
    ? `(baseline)\` rows: a checkout of commit ${execFileSync('git', ['-C', BASELINE, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}, run the same way`
    : '';
  const command = `\`npx tsx bench/cli-start.ts --runs ${RUNS}${BASELINE ? ' --baseline <checkout>' : ''} --readme\``;
  const section = [START, `${command}.${baseline ? ` \`${baseline}.` : ''} Machine: ${machine}.`, '', table, END].join('\n');
  const readme = readFileSync(README, 'utf8');
  writeFileSync(
    README,
    readme.includes(START)
      ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
      : `${readme.trimEnd()}\n\n## Command line: start-up\n\n${section}\n`,
  );
}
