// `stablepay chains`: the five chains alone, for implementers — started through @viem/anvil from the baked state
// (or forked with --fork), test accounts funded, the chains file written and printed; runs until SIGINT/SIGTERM.
// Exit codes: 0 after a clean shutdown, 2 for bad flags or chains that cannot start.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { TestChains } from '@stablepay/chains/start-test-chains';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay chains                                   # five chains on 127.0.0.1, banner with RPC URLs and env lines',
  '  $ stablepay chains --json --out chains.json          # only the chains file (JSON) on stdout',
  '  $ stablepay chains --host 0.0.0.0 --fork 1=https://eth.example/rpc',
].join('\n');

interface ChainsFlags {
  json: boolean;
  fork?: string[];
  host: string;
  out?: string;
}

export function chainsBanner(chains: TestChains): string {
  const lines = [
    'stablepay chains are running (Ctrl-C stops them)',
    ...chains.file.chains.map(
      (c) => `  ${c.name.padEnd(16)} chainId ${String(c.chainId).padEnd(6)} ${c.rpcUrl}${c.forkOf ? `  (fork of ${c.forkOf})` : ''}`,
    ),
    `  EntryPoint v0.7    ${chains.file.entryPoint}`,
    `  Account factory    ${chains.file.accountFactory}`,
    `  Paymaster          ${chains.file.paymaster}`,
    `  Test accounts      ${chains.file.testAccounts.length}, each ${chains.file.funding.native} native and ${chains.file.funding.tokens} of every token (keys in the chains file)`,
    `  USDC admin roles   ${chains.file.usdcRoles.owner.address} (owner, master minter, pauser, blacklister)`,
    `  Chains file        ${chains.filePath}`,
    '',
    'Environment for an implementation under test:',
    ...Object.entries(chains.env).map(([key, value]) => `  export ${key}=${value}`),
  ];
  return lines.join('\n');
}

export function registerChainsCommand(program: Command): Command {
  return program
    .command('chains')
    .description(
      'Run the five local chains alone (baked USDC/USDT, EntryPoint v0.7, funded test accounts) for an implementation under test',
    )
    .addOption(new Option('--json', 'print only the chains file (JSON) on stdout'))
    .addOption(
      new Option('--fork <chainId=rpcUrl>', 'run this chain as a fork of a real endpoint (repeatable)').argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .addOption(new Option('--host <host>', 'interface the chains listen on (0.0.0.0 lets containers reach them)').default('127.0.0.1'))
    .addOption(new Option('--out <file>', 'where to write the chains file').default(undefined, '<tmp>/stablepay-chains-<pid>.json'))
    .addHelpText('after', `${EXAMPLES}\n\nExit codes: 0 stopped on request, 2 bad flags or chains that cannot start.`)
    .action(async (flags: ChainsFlags) => {
      let chains: TestChains;
      try {
        // Loaded only when the command runs, so `stablepay --help` stays fast.
        const [{ CHAIN_IDS }, { parseForks }, { startTestChains }] = await Promise.all([
          import('@stablepay/contract/chain-table'),
          import('@stablepay/chains/fork-flags'),
          import('@stablepay/chains/start-test-chains'),
        ]);
        const forks = parseForks(flags.fork ?? [], CHAIN_IDS);
        chains = await startTestChains({
          filePath: resolve(flags.out ?? join(tmpdir(), `stablepay-chains-${process.pid}.json`)),
          forks,
          host: flags.host,
        });
      } catch (error) {
        console.error(`stablepay chains: ${firstLine(error)}`);
        process.exitCode = 2;
        return;
      }
      console.log(flags.json ? JSON.stringify(chains.file, null, 2) : chainsBanner(chains));
      let stopping = false;
      const shutdown = (): void => {
        if (stopping) return;
        stopping = true;
        void chains.stop().then(() => process.exit(0));
      };
      // `on`, not `once`: signal-exit (under @viem/anvil's execa) re-raises a signal it finds no other listener for.
      process.on('SIGINT', shutdown);
      process.on('SIGTERM', shutdown);
    });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
