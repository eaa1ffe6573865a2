// `stablepay replay-delivery <report>`: re-posts a webhook delivery recorded in a conformance report (a webhook
// finding's evidence) to a URL, byte for byte, so an implementer can feed their own receiver or verifier exactly what
// the suite received; `--resign` signs the same body afresh with the secret from an environment variable for a
// correct delivery to compare with. Exit codes: 0 the receiver answered 2xx (or --list/--dry-run), 1 it answered
// something else or could not be reached, 2 usage errors.
import { Option, type Command } from 'commander';
import { EXIT_FAILURE, EXIT_USAGE, USAGE_HINT } from './exit-codes.ts';

const SECRET_ENV_DEFAULT = 'STABLEPAY_WEBHOOK_SECRET';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay replay-delivery reports --list',
  '  $ stablepay replay-delivery reports --delivery delivery-3 --to http://127.0.0.1:8080/webhooks',
  '  $ STABLEPAY_WEBHOOK_SECRET=whsec_... stablepay replay-delivery reports/conformance.json --delivery delivery-3 --to http://127.0.0.1:8080/webhooks --resign',
  '  $ stablepay replay-delivery finding.json --dry-run      # a file holding one finding (or one delivery) from the JSON report',
].join('\n');

interface ReplayFlags {
  delivery?: string;
  to?: string;
  resign?: boolean;
  secretEnv: string;
  dryRun?: boolean;
  list?: boolean;
}

export function registerReplayDeliveryCommand(program: Command): Command {
  return program
    .command('replay-delivery')
    .description('Re-post a webhook delivery recorded in a conformance report to a URL (debug a signer or a verifier)')
    .argument('<report>', 'report directory, its conformance.json, or a JSON file holding one finding or one delivery')
    .addOption(
      new Option('--delivery <id>', 'the delivery to replay (its id in the finding, e.g. delivery-3); optional when the file holds one'),
    )
    .addOption(new Option('--to <url>', 'where to post it (http or https)'))
    .addOption(
      new Option(
        '--resign',
        'sign the recorded body afresh (now) with the secret in --secret-env instead of sending the recorded signature',
      ),
    )
    .addOption(
      new Option('--secret-env <name>', 'environment variable holding the webhook secret for --resign').default(SECRET_ENV_DEFAULT),
    )
    .addOption(new Option('--dry-run', 'print the request instead of sending it'))
    .addOption(new Option('--list', 'list the deliveries the report holds and exit'))
    .addHelpText(
      'after',
      `${EXAMPLES}\n\nExit codes: 0 answered 2xx (or --list, --dry-run), 1 answered otherwise or unreachable, 2 usage error.`,
    )
    .action(async (source: string, flags: ReplayFlags) => {
      const [{ loadDeliveries, pickDelivery, replayRequest, sendReplay }, { UsageError }] = await Promise.all([
        import('@stablepay/conformance/replay'),
        import('@stablepay/conformance/options'),
      ]);
      try {
        const { file, deliveries } = loadDeliveries(source);
        if (flags.list) {
          if (deliveries.length === 0) process.stdout.write(`${file}: no webhook delivery (only webhook findings carry one)\n`);
          for (const { delivery, finding } of deliveries) {
            process.stdout.write(
              `${delivery.id}  ${delivery.method} ${delivery.receivedAt}  ${finding ? `${finding.checkId ?? ''} [${finding.requirement ?? ''}] ${finding.title ?? ''}` : ''}\n`,
            );
          }
          return;
        }
        const { delivery } = pickDelivery(file, deliveries, flags.delivery);
        if (!flags.dryRun && flags.to === undefined) throw new UsageError('--to <url> is required (or --dry-run to print the request)');
        if (flags.to !== undefined) {
          let url: URL | undefined;
          try {
            url = new URL(flags.to);
          } catch {
            // reported below
          }
          if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
            throw new UsageError(`--to: "${flags.to}" is not an http(s) URL`);
        }
        let resign: { secret: string; nowSeconds: number } | null = null;
        if (flags.resign) {
          const secret = process.env[flags.secretEnv];
          if (!secret) throw new UsageError(`--resign: set ${flags.secretEnv} to the endpoint's webhook secret`);
          resign = { secret, nowSeconds: Math.floor(Date.now() / 1000) };
        }
        const replay = replayRequest(delivery, resign);
        for (const note of replay.notes) process.stderr.write(`note: ${note}\n`);
        if (flags.dryRun) {
          process.stdout.write(
            `${replay.method} ${flags.to ?? '<--to URL>'}\n${Object.entries(replay.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}\n\n${replay.body.toString('utf8')}\n`,
          );
          return;
        }
        try {
          const answer = await sendReplay(flags.to!, replay);
          process.stdout.write(`${delivery.id} -> ${flags.to}: ${answer.status}${answer.body ? ` ${answer.body.slice(0, 300)}` : ''}\n`);
          process.exitCode = answer.status >= 200 && answer.status < 300 ? 0 : EXIT_FAILURE;
        } catch (error) {
          process.stdout.write(`${delivery.id} -> ${flags.to}: not delivered (${(error as Error).message})\n`);
          process.exitCode = EXIT_FAILURE;
        }
      } catch (error) {
        if (error instanceof UsageError) {
          process.stderr.write(`error: ${error.message}\n${USAGE_HINT}\n`);
          process.exitCode = EXIT_USAGE;
          return;
        }
        throw error;
      }
    });
}
