// `stablepay conformance`: builds its flags from the option declarations (conformance/options.ts), parses them and
// calls runConformance. Exit codes: 0 conformant, 1 failed checks, 2 the suite could not judge (usage, an unusable
// target or scaffolding, an `error` result, --max-run-time), 130/143 interrupted by SIGINT/SIGTERM. The first signal
// stops the run (partial reports are written); a second one exits at once.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, OPTION_DECLARATIONS, parseOptionValue, UsageError, type ConformanceOptions } from '@stablepay/conformance/options';
import { EXIT_CODE_OF_SIGNAL } from '@stablepay/conformance/classify';
import { RunStop, stopBySignal } from '@stablepay/conformance/run-stop';
import { TargetError } from '@stablepay/conformance/black-box-errors';
import { TARGET_ENVIRONMENT } from '@stablepay/conformance/black-box-options';
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
  'Exit codes: 0 conformant; 1 not conformant (failed checks); 2 the suite could not judge (bad usage, an',
  'unreachable or broken target, control API or other scaffolding, a check that broke with an error, --max-run-time',
  'reached); 130/143 interrupted by SIGINT/SIGTERM (the reports hold what ran; a second Ctrl-C exits at once).',
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
      if (
        declaration.parser === 'replay' ||
        declaration.parser === 'key-value' ||
        declaration.parser === 'fork' ||
        declaration.parser === 'header'
      ) {
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
  const command = program
    .command('conformance')
    .description('check an implementation at a base URL against the contract')
    .addHelpText('after', EXAMPLES);
  for (const declaration of OPTION_DECLARATIONS) command.addOption(optionFor(declaration));
  command.action(async (flags: Record<string, unknown>) => {
    // The YAML parser (config-file.ts) loads only here: `stablepay start` and `--help` never need it.
    const [{ listChecks, runConformance }, { findConfigFile, readConfigFile }] = await Promise.all([
      import('@stablepay/conformance'),
      import('./config-file.ts'),
    ]);
    if (flags.list) {
      process.stdout.write(listChecks());
      return;
    }
    const stopping = stopOnSignals();
    try {
      const fromCommandLine = toOptions(flags, (attribute) => command.getOptionValueSource(attribute) === 'cli');
      const file = findConfigFile(flags.config as string | undefined);
      const fromFile = file ? readConfigFile(file) : {};
      // -x and --max-failures are one setting: either on the command line replaces both from the file.
      if ('maxFailures' in fromCommandLine || 'failFast' in fromCommandLine) {
        delete fromFile.maxFailures;
        delete fromFile.failFast;
      }
      const outcome = await runConformance({ ...fromFile, ...fromCommandLine, signal: stopping.signal } as ConformanceOptions);
      process.exitCode = outcome.exitCode;
      // What an abandoned check left pending (a wait, a sleep) must not hold an interrupted run open; the exit waits
      // for stdout to drain (a report piped out is larger than the pipe's buffer).
      if (outcome.result.summary.interrupted) await exitOnceFlushed(outcome.exitCode);
    } catch (error) {
      process.exitCode = exitCodeOfFailure(error);
    } finally {
      stopping.runIsOver();
    }
  });
  return command;
}

/** One sentence on stderr for whatever ended the command before a verdict, and its exit code. Never a stack trace. */
function exitCodeOfFailure(error: unknown): number {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof TargetError) {
    process.stderr.write(`error: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof RunStop) {
    process.stderr.write(`stopped: ${error.message} before any check ran; no report was written\n`);
    return error.by === 'max-run-time' ? EXIT_USAGE : EXIT_CODE_OF_SIGNAL[error.by];
  }
  // A fault of the suite itself: exit 2 (it could not judge), never 1, which means "not conformant".
  const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  process.stderr.write(
    `error: the suite failed: ${message}${process.env.STABLEPAY_DEBUG ? `\n${(error as Error).stack}` : ' (STABLEPAY_DEBUG=1 shows where)'}\n`,
  );
  return EXIT_USAGE;
}

/**
 * SIGINT/SIGTERM: the first stops the run (no further check starts, the running one ends or is aborted, everything
 * started is torn down, the reports are written and marked interrupted); a second exits at once, and the exit hooks
 * of what runs under us (the target's process group, the chains' watchdogs, the browser) still stop it. The handlers
 * stay until the process exits (signal-exit, under execa, re-raises a signal it finds no other listener for): once
 * the run is over, a signal while the last things are stopped exits at once too.
 */
function stopOnSignals(): { signal: AbortSignal; runIsOver(): void } {
  const controller = new AbortController();
  let first: 'SIGINT' | 'SIGTERM' | undefined;
  let over = false;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (first || over) {
      process.stderr.write(`${signal}${first ? ' again' : ''}: exiting at once\n`);
      process.exit(EXIT_CODE_OF_SIGNAL[first ?? signal]);
    }
    first = signal;
    process.stderr.write(
      `${signal}: stopping the run; the reports will hold what ran (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again exits at once)\n`,
    );
    controller.abort(stopBySignal(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    runIsOver: () => {
      over = true;
    },
  };
}

async function exitOnceFlushed(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}
