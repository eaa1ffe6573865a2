// The `stablepay` command line: one commander program built from one file per subcommand. Each subcommand file only
// declares and parses flags, then calls its library (startServer, runConformance), which it imports lazily so that
// `stablepay --help` loads none of them. Adding a subcommand is one file in this folder and one line in SUBCOMMANDS.
import { Command } from 'commander';
import { packageVersion } from '@stablepay/contract/package-root';
import { registerChainsCommand } from './chains-command.ts';
import { registerConformanceCommand } from './conformance.ts';
import { EXIT_OK, EXIT_USAGE, USAGE_HINT } from './exit-codes.ts';
import { registerListenCommand } from './listen.ts';
import { registerResetCommand } from './reset.ts';
import { registerStartCommand } from './start.ts';
import { registerTriggerCommand } from './trigger.ts';
import { registerVerifyReportCommand } from './verify-report.ts';
import { registerReplayDeliveryCommand } from './replay-delivery.ts';
import { registerReplayCommand } from './replay.ts';

/** Every subcommand, in the order `stablepay --help` lists them. */
const SUBCOMMANDS: ((program: Command) => Command)[] = [
  registerStartCommand,
  registerConformanceCommand,
  registerChainsCommand,
  registerListenCommand,
  registerTriggerCommand,
  registerResetCommand,
  registerVerifyReportCommand,
  registerReplayCommand,
  registerReplayDeliveryCommand,
];

/** Commander's own outcomes that are not errors: help or version asked for. */
const SUCCESS_CODES = new Set(['commander.helpDisplayed', 'commander.version']);

export function createProgram(): Command {
  const program = new Command('stablepay')
    .description('Stablecoin payment service toolkit: simulator, contract and conformance suite')
    .version(packageVersion, '-V, --version', 'print the version and exit')
    // One line and where to look, not the whole help (80-100 lines that bury the one that matters).
    .showHelpAfterError(USAGE_HINT)
    // Set before the subcommands are added, which inherit it: every commander error (unknown flag, missing value,
    // bad argument, no subcommand) is a usage error, exit 2, after commander has printed its message.
    .exitOverride((error) => process.exit(SUCCESS_CODES.has(error.code) ? EXIT_OK : EXIT_USAGE))
    .addHelpText(
      'after',
      '\nExamples:\n  $ stablepay start\n  $ stablepay conformance --base-url http://127.0.0.1:4000 --api-key pk_...\n  $ stablepay chains --json\n  $ stablepay verify-report reports/conformance --public-key signing-key.pub.pem\n  $ stablepay replay reports/conformance/conformance.json --check pagination.cursor-walk\n  $ stablepay replay-delivery reports/conformance --list\n  $ stablepay <command> --help',
    );
  for (const register of SUBCOMMANDS) register(program);
  return program;
}
