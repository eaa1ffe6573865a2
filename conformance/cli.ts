// `stablepay conformance`: parses flags (declared as data in options.ts) and calls runConformance.
// Exit codes: 0 conformant, 1 failures, 2 usage or configuration error.
import { Command, InvalidArgumentError, Option } from 'commander';
import { OPTION_DECLARATIONS, parseOptionValue, UsageError, ConfigError, type ConformanceOptions } from './options.ts';
import { listChecks, runConformance } from './index.ts';
import { TargetError } from './target/target-errors.ts';

export const EXIT_USAGE = 2;

export function registerConformanceCommand(program: Command): Command {
  const command = program.command('conformance').description('check an implementation at a base URL against the contract');
  for (const declaration of OPTION_DECLARATIONS) {
    const option = new Option(declaration.flags, declaration.description);
    if (declaration.defaultText) option.default(undefined, declaration.defaultText);
    if (declaration.parser !== 'flag' && declaration.parser !== 'string') {
      option.argParser((raw: string, previous: unknown) => {
        try {
          const value = parseOptionValue(declaration.parser, raw, declaration.flags.split(' ')[0]!);
          if (declaration.parser === 'replay' || declaration.parser === 'key-value' || declaration.parser === 'fork') {
            const [key, entry] = value as [string, string];
            return { ...(previous as Record<string, string> | undefined), [key]: entry };
          }
          return value;
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message);
        }
      });
    }
    command.addOption(option);
  }
  command.exitOverride((error) => {
    // Commander has already printed its message; only the exit code is ours.
    const ok = error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version';
    process.exit(ok ? 0 : EXIT_USAGE);
  });
  command.action(async (flags: Record<string, unknown>) => {
    if (flags.list) {
      process.stdout.write(listChecks());
      return;
    }
    // Flags are keyed by commander's attribute names (--format -> format); map them to option names.
    const options: Record<string, unknown> = {};
    for (const declaration of OPTION_DECLARATIONS) {
      const value = flags[new Option(declaration.flags).attributeName()];
      if (value !== undefined && declaration.name !== 'list') options[declaration.name] = value;
    }
    try {
      const outcome = await runConformance(options as unknown as ConformanceOptions);
      process.exitCode = outcome.exitCode;
    } catch (error) {
      if (error instanceof UsageError || error instanceof ConfigError || error instanceof TargetError) {
        process.stderr.write(`error: ${error.message}\n`);
        process.exitCode = EXIT_USAGE;
        return;
      }
      throw error;
    }
  });
  return command;
}
