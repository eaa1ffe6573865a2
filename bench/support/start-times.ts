// Start-up times: the CLI, the simulator to its banner (as `npm start` and as the command npm runs), against
// `node -e 0` (the floor of any Node command) and five bare Anvil processes on the baked chain state (the floor
// of a chain-backed start). Runs are interleaved so background load spreads over every row alike.
import { join } from 'node:path';
import { chainStateDir } from '@stablepay/chains/paths';
import { resolveAnvilBinary } from '@stablepay/chains/resolve-anvil-binary';
import { spawnUntil, timeToExit } from './child-process.ts';
import { CLI, ROOT } from './servers.ts';

export interface StartRow {
  what: string;
  samples: number[];
}

const CHAIN_IDS = [1, 42161, 8453, 137, 56];
// The banner is one write; its first line says the server and the demo payment are ready.
const BANNER = /stablepay simulator is running/;

/** The same arguments the simulator gives Anvil (chains/anvil/spawn-anvil.ts), without its watchdog shell. */
async function bareAnvilsMs(): Promise<number> {
  const binary = resolveAnvilBinary();
  const t0 = performance.now();
  const started = await Promise.all(
    CHAIN_IDS.map(async (chainId) => {
      const args = [
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--chain-id',
        String(chainId),
        '--accounts',
        '0',
        '--base-fee',
        '0',
        '--no-priority-fee',
        '--threads',
        '1',
        '--load-state',
        join(chainStateDir, `${chainId}.json`),
      ];
      const anvil = await spawnUntil(binary, args, /Listening on [\d.]+:(\d+)/);
      await answersChainId(`http://127.0.0.1:${anvil.match[1]}`, chainId);
      return anvil;
    }),
  );
  const elapsed = performance.now() - t0;
  await Promise.all(started.map((a) => a.stop()));
  return elapsed;
}

async function answersChainId(url: string, chainId: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      const body = (await res.json()) as { result?: string };
      if (Number(body.result) === chainId) return;
    } catch {
      // not accepting connections yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`anvil at ${url} never answered eth_chainId ${chainId}`);
}

async function untilBanner(command: string, args: string[], cwd = ROOT, env?: NodeJS.ProcessEnv): Promise<number> {
  const started = await spawnUntil(command, args, BANNER, { cwd, ...(env ? { env } : {}) });
  await started.stop();
  return started.elapsedMs;
}

const ROWS: { what: string; run: () => Promise<number> }[] = [
  { what: '`node -e 0`', run: () => timeToExit(process.execPath, ['-e', '0']) },
  { what: '`stablepay --help` (node bin/stablepay.js --help)', run: () => timeToExit(process.execPath, [CLI, '--help'], { cwd: ROOT }) },
  { what: 'bare Anvil ×5, baked state, until each answers eth_chainId', run: bareAnvilsMs },
  // npm's own part of `npm start`: `npm run` of a script that does nothing (node -e 0), and the same npm and shell
  // around a command that only prints its help. Neither is ours to speed up.
  {
    what: "`npm run bench:noop` (npm running `node -e 0`: npm's fixed cost)",
    run: () => timeToExit('npm', ['run', '--silent', 'bench:noop'], { cwd: ROOT }),
  },
  {
    what: '`npm start -- --help` (npm and its shell around the command: the floor of any `npm start`)',
    run: () => timeToExit('npm', ['start', '--', '--help'], { cwd: ROOT }),
  },
  { what: '`npm start` to its banner (five chains, demo payment)', run: () => untilBanner('npm', ['start', '--', '--port', '0']) },
  {
    what: '`node bin/stablepay.js start` to its banner (what npm start runs)',
    run: () => untilBanner(process.execPath, [CLI, 'start', '--port', '0']),
  },
];

// Where NODE_EXTRA_CA_CERTS is set (as in some sandboxes and CI images), every Node process parses those
// certificates before it runs any code: tens of ms that Anvil does not pay and a machine without the variable
// does not either. The Node rows are then measured a second time without it, so both figures are in one run.
const EXTRA_CA = 'NODE_EXTRA_CA_CERTS';
const withoutExtraCa = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env[EXTRA_CA];
  return env;
};
const NO_CA = ` (without ${EXTRA_CA})`;

function withoutExtraCaRows(root: string | undefined): { what: string; run: () => Promise<number> }[] {
  if (!process.env[EXTRA_CA]) return [];
  const rows = [
    { what: `\`node -e 0\`${NO_CA}`, run: () => timeToExit(process.execPath, ['-e', '0'], { env: withoutExtraCa() }) },
    {
      what: `\`npm run bench:noop\` (npm's fixed cost)${NO_CA}`,
      run: () => timeToExit('npm', ['run', '--silent', 'bench:noop'], { cwd: ROOT, env: withoutExtraCa() }),
    },
    { what: `\`npm start\` to its banner${NO_CA}`, run: () => untilBanner('npm', ['start', '--', '--port', '0'], ROOT, withoutExtraCa()) },
    {
      what: `\`node bin/stablepay.js start\` to its banner${NO_CA}`,
      run: () => untilBanner(process.execPath, [CLI, 'start', '--port', '0'], ROOT, withoutExtraCa()),
    },
  ];
  if (root) {
    const cli = join(root, 'bin', 'stablepay.js');
    rows.push({
      what: `\`node bin/stablepay.js start\` to its banner (baseline)${NO_CA}`,
      run: () => untilBanner(process.execPath, [cli, 'start', '--port', '0'], root, withoutExtraCa()),
    });
  }
  return rows;
}

/** The CLI's rows again for another built checkout (`--baseline`), interleaved with the others. */
function baselineRows(root: string): { what: string; run: () => Promise<number> }[] {
  const cli = join(root, 'bin', 'stablepay.js');
  return [
    { what: '`stablepay --help` (baseline)', run: () => timeToExit(process.execPath, [cli, '--help'], { cwd: root }) },
    {
      what: '`node bin/stablepay.js start` to its banner (baseline)',
      run: () => untilBanner(process.execPath, [cli, 'start', '--port', '0'], root),
    },
  ];
}

export async function measureStartTimes(runs: number, log: (line: string) => void, baseline?: string): Promise<StartRow[]> {
  const all = [...ROWS, ...(baseline ? baselineRows(baseline) : []), ...withoutExtraCaRows(baseline)];
  const rows = all.map((r) => ({ what: r.what, samples: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    for (const [index, row] of all.entries()) {
      const ms = await row.run();
      rows[index]?.samples.push(ms);
      log(`start ${i + 1}/${runs}: ${row.what}: ${ms.toFixed(0)} ms`);
    }
  }
  return rows;
}
