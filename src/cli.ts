// The `stablepay` command: parses flags only; every subcommand lives beside its library.
import { Command } from 'commander';
import { registerStartCommand } from '../simulator/cli.ts';
import { registerConformanceCommand } from '../conformance/cli.ts';
import { registerChainsCommand } from '../cli/chains-command.ts';

const program = new Command('stablepay')
  .description('Stablecoin payment service toolkit: simulator, contract and conformance suite')
  .showHelpAfterError();

registerStartCommand(program);
registerConformanceCommand(program);
registerChainsCommand(program);

await program.parseAsync(process.argv);
