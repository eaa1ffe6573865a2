// `stablepay conformance`: builds its flags from the option declarations (conformance/options.ts), parses them and
// calls runConformance. Exit codes: 0 conformant, 1 failures, 2 usage or configuration error.
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, OPTION_DECLARATIONS, parseOptionValue, UsageError, type ConformanceOptions } from '../conformance/options.ts';
import { TargetError } from '../conformance/target/target-errors.ts';
import { TARGET_ENVIRONMENT } from '../conformance/target/target-options.ts';
import { longFlag } from './long-flag.ts';
import { EXIT_USAGE } from './exit-codes.ts';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay conformance --base-url http://127.0.0.1:4000 --api-key pk_...',
  '  $ STABLEPAY_API_KEY=pk_... stablepay conformance --base-url https://sandbox.example.com --skip slow --report-dir reports --format console,junit,html',
  '  $ stablepay conformance --base-url http://127.0.0.1:4000 --format ndjson -x   # one JSON line per check; stop at the first failure',
  '  $ stablepay conformance --config ci/stablepay.config.yaml -H "X-Gateway-Token: $TOKEN"',
  '  $ stablepay conformance --list',
  '',
  'Every flag can also be set in stablepay.config.json|yaml (current directory) or --config <file>:',
  'keys camelCase (baseUrl, maxFailures) or as flags (base-url, no-webhooks); the command line wins.',
  'Its `profile` section (or --profile <file>) declares what the spec leaves open and the suite cannot discover.',
  '',
  'A target started with --target-command or --target-image gets these variables (docs/implementers.md):',
  ...TARGET_ENVIRONMENT.map(({ name, meaning }) => `  ${name}\n      ${meaning}`),
].join('\n');

function optionFor(declaration: (typeof OPTION_DECLARATIONS)[number]): Option {
  const option = new Option(declaration.flags, declaration.description);
  if (declaration.defaultText) option.default(undefined, declaration.defaultText);
  if (declaration.parser === 'flag' || declaration.parser === 'string') return option;
  return option.argParser((raw: string, previous: unknown) => {
    try {
      const value = parseOptionValue(declaration.parser, raw, longFlag(declaration));
      // Validated here for a clear message at parse time; resolveOptions() parses the string itself.
      if (declaration.parser === 'host-port') return raw;
      if (declaration.parser === 'replay' || declaration.parser === 'key-value' || declaration.parser === 'fork' || declaration.parser === 'header') {
        const [key, entry] = value as [string, string];
        return { ...(previous as Record<string, string> | undefined), [key]: entry };
      }
      return value;
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  });
}

/** Flags are keyed by commander's attribute names (--format -> format); map them back to option names. Only values
 * given on the command line are taken (`given`), so a configuration file fills the rest. */
function toOptions(flags: Record<string, unknown>, given: (attribute: string) => boolean): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const declaration of OPTION_DECLARATIONS) {
    const attribute = new Option(declaration.flags).attributeName();
    const value = flags[attribute];
    if (value !== undefined && declaration.name !== 'list' && given(attribute)) options[declaration.name] = value;
  }
  return options;
}

export function registerConformanceCommand(program: Command): Command {
  const command = program.command('conformance').description('check an implementation at a base URL against the contract').addHelpText('after', EXAMPLES);
  for (const declaration of OPTION_DECLARATIONS) command.addOption(optionFor(declaration));
  command.action(async (flags: Record<string, unknown>) => {
    // The YAML parser (config-file.ts) loads only here: `stablepay start` and `--help` never need it.
    const [{ listChecks, runConformance }, { findConfigFile, readConfigFile }] = await Promise.all([import('../conformance/index.ts'), import('./config-file.ts')]);
    if (flags.list) {
      process.stdout.write(listChecks());
      return;
    }
    try {
      const fromCommandLine = toOptions(flags, (attribute) => command.getOptionValueSource(attribute) === 'cli');
      const file = findConfigFile(flags.config as string | undefined);
      const fromFile = file ? readConfigFile(file) : {};
      // -x and --max-failures are one setting: either on the command line replaces both from the file.
      if ('maxFailures' in fromCommandLine || 'failFast' in fromCommandLine) {
        delete fromFile.maxFailures;
        delete fromFile.failFast;
      }
      const outcome = await runConformance({ ...fromFile, ...fromCommandLine } as ConformanceOptions);
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
