// `stablepay replay <report> --check <id>`: runs a failed check of a conformance report again against the
// implementation with your own credentials and says whether the failure reproduces (the library is
// conformance/replay/). Exit codes: 1 it reproduces (the check fails or warns again), 0 it does not (the check
// passes), 2 usage errors, an unreachable target, or a check that could not be judged this time.
import { Option, type Command } from 'commander';
import { ENV } from '@stablepay/simulator/defaults';
import { EXIT_USAGE, USAGE_HINT } from './exit-codes.ts';
import { BASE_URL_ENV, parseBaseUrl } from './remote.ts';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay replay reports/conformance/conformance.json --check pagination.cursor-walk',
  '  $ stablepay replay reports/conformance --check lifecycle.cancel --base-url http://127.0.0.1:4100',
  '',
  'Each failed or warned check of a report prints its replay line; the secrets it reads are named under it. The',
  "check runs again as it did in the run (the run's one seed, the recorded fast-check counterexamples): it makes what",
  'it needs anew (payments, cursors; with a control API a merchant and a test clock of its own, never the merchant',
  'the suite made in the run, whose key no report holds) and repeats its requests. A cross-cutting check first runs',
  'the checks whose requests it judged. It prints what was sent and what came back, then REPRODUCED or NOT REPRODUCED.',
  '',
  'Target: --base-url, else STABLEPAY_BASE_URL, else the base URL (and control API) of the recorded run.',
].join('\n');

interface ReplayFlags {
  check?: string;
  baseUrl?: string;
  apiKey?: string;
  controlToken?: string;
  secondApiKey?: string;
  header?: string[];
}

export function registerReplayCommand(program: Command): Command {
  return program
    .command('replay')
    .description(
      'Run a failed check of a conformance report again against the implementation with your own credentials: does it still fail?',
    )
    .argument('<report>', 'the report directory or its conformance.json')
    .addOption(new Option('--check <id>', 'the failed or warned check to replay (its replay line names it)'))
    .addOption(new Option('--base-url <url>', "the implementation (default: the recorded run's)").env(BASE_URL_ENV))
    .addOption(new Option('--api-key <key>', 'your API key (the one the run was given)').env(ENV.apiKey))
    .addOption(new Option('--control-token <token>', "the control API's token, if it was started with one").env(ENV.controlToken))
    .addOption(new Option('--second-api-key <key>', "a second merchant's key, if the run was given one").env('STABLEPAY_SECOND_API_KEY'))
    .addOption(
      new Option(
        '-H, --header <line>',
        "an extra header 'Name: value' on every request, as the run had (repeatable; its replay line names them)",
      ).argParser((line: string, previous: string[] | undefined) => [...(previous ?? []), line]),
    )
    .addHelpText(
      'after',
      `${EXAMPLES}\n\nExit codes: 1 the failure reproduces, 0 it does not (the check passes), 2 usage error or the check could not be judged.`,
    )
    .action(async (report: string, flags: ReplayFlags) => {
      const [{ replayCheck }, { ConfigError, UsageError, parseHeaderLine }, { RunStop, stopBySignal }] = await Promise.all([
        import('@stablepay/conformance/replay-check'),
        import('@stablepay/conformance/options'),
        import('@stablepay/conformance/run-stop'),
      ]);
      const controller = new AbortController();
      const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
        if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
        controller.abort(stopBySignal(signal));
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        if (!flags.check) throw new UsageError('--check <id> is required: the failed check to replay (its replay line names it)');
        const headers = Object.fromEntries((flags.header ?? []).map((line) => parseHeaderLine(line, '--header')));
        process.exitCode = await replayCheck({
          report,
          checkId: flags.check,
          ...(flags.baseUrl ? { baseUrl: parseBaseUrl(flags.baseUrl) } : {}),
          ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
          ...(flags.controlToken ? { controlToken: flags.controlToken } : {}),
          ...(flags.secondApiKey ? { secondApiKey: flags.secondApiKey } : {}),
          ...(Object.keys(headers).length ? { headers } : {}),
          write: (text) => void process.stdout.write(text),
          signal: controller.signal,
        });
      } catch (error) {
        if (error instanceof UsageError || error instanceof ConfigError || error instanceof RunStop) {
          process.stderr.write(`stablepay replay: ${error.message}\n`);
          if (error instanceof UsageError) process.stderr.write(`${USAGE_HINT}\n`);
          process.exitCode = EXIT_USAGE;
          return;
        }
        const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
        process.stderr.write(`stablepay replay: the replay failed: ${message}\n`);
        process.exitCode = EXIT_USAGE;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
