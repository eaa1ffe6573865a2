// `stablepay listen --forward-to <url>`, like Stripe's: registers a listener session with the simulator (its own
// secret, beside the merchant's endpoint, which it never touches) and forwards every delivery, headers and raw body
// unchanged, printing one line each. The secret is the listener identity's (--name, "default"): the same on every run,
// printed by --print-secret. Several listens at once each get every delivery; stopping one deletes only its session.
// A reset keeps the session (the simulator's registry outlives it); a simulator restart loses it, and listen
// registers again with the same secret. Each of these is said in one line.
import { type Command, Option } from 'commander';
import { UsageError } from './exit-codes.ts';
import { checkListenerName, DEFAULT_LISTENER_NAME, listenerSecret } from './listen-secret.ts';
import { addRemoteOptions, parseHttpUrl, Remote, remoteAction, type RemoteFlags } from './remote.ts';
import { TRIGGER_EVENTS } from './trigger-plan.ts';
import { startRelay, type RelayedDelivery } from './webhook-relay.ts';

interface ListenFlags extends RemoteFlags {
  forwardTo?: string;
  events?: string;
  port: string;
  name: string;
  printSecret?: boolean;
}

/** How often listen asks for its session: a restart of the simulator is noticed within about this. */
const HEARTBEAT_MS = 1_000;

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay listen --forward-to http://localhost:3000/webhooks',
  '  $ stablepay listen --print-secret                    # the secret to configure your receiver with',
  '  $ stablepay listen --forward-to http://localhost:3000/webhooks --events payment.completed,payment.failed',
  '  $ stablepay listen --forward-to http://localhost:4000/hooks --name billing   # a second identity, its own secret',
].join('\n');

export function registerListenCommand(program: Command): Command {
  return addRemoteOptions(
    program.command('listen').description("Forward the simulator's webhook deliveries to a local URL, signed with a stable secret"),
  )
    .addOption(new Option('--forward-to <url>', 'where each delivery is forwarded (http:// or https://)'))
    .addOption(new Option('--events <list>', 'only these events, comma-separated'))
    .addOption(new Option('--port <port>', 'port of the local relay (0 = any free port)').default('0'))
    .addOption(new Option('--name <identity>', 'listener identity: one stable secret per name').default(DEFAULT_LISTENER_NAME))
    .addOption(new Option('--print-secret', "print the identity's signing secret and exit"))
    .addHelpText(
      'after',
      `${EXAMPLES}\n\nThe secret is kept in $STABLEPAY_CONFIG_DIR (default ~/.config/stablepay)/listeners/<name>.secret.\nStops on Ctrl-C. Exit codes: 0 stopped, 1 the simulator could not be reached, 2 usage error.`,
    )
    .action(remoteAction('listen', (flags: ListenFlags) => listen(flags)));
}

function parseEvents(list: string | undefined): string[] | null {
  if (list === undefined) return null;
  const events = list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events.filter((e) => !(TRIGGER_EVENTS as readonly string[]).includes(e));
  if (events.length === 0 || unknown.length > 0)
    throw new UsageError(`--events: unknown ${unknown.join(', ') || '(empty list)'}; one of ${TRIGGER_EVENTS.join(', ')}`);
  return [...new Set(events)];
}

function line(d: RelayedDelivery): string {
  const time = new Date().toISOString().slice(11, 19);
  const outcome = d.status !== null ? `-> ${d.status}` : `-> ${d.error}`;
  return `${time}  ${d.event.padEnd(18)} ${d.subject ?? '-'}  ${outcome} (${d.ms} ms)${d.deliveryId ? `  [${d.deliveryId}]` : ''}`;
}

interface Session {
  id: string;
  merchantId: string;
}

async function listen(flags: ListenFlags): Promise<void> {
  const name = checkListenerName(flags.name);
  if (flags.printSecret) {
    console.log(listenerSecret(name).secret);
    return;
  }
  if (flags.forwardTo === undefined) throw new UsageError('--forward-to <url> is required (or --print-secret)');
  const forwardTo = parseHttpUrl(flags.forwardTo, '--forward-to').href;
  const remote = new Remote(flags);
  remote.requireKey();
  if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65_535) throw new UsageError(`--port must be 0..65535, got "${flags.port}"`);
  const events = parseEvents(flags.events);
  const { secret, file, created } = listenerSecret(name);
  const relay = await startRelay({ forwardTo, onDelivery: (d) => console.log(line(d)) }, '127.0.0.1', Number(flags.port));
  const register = async (): Promise<Session> =>
    remote.expect('POST', '/control/v1/listeners', [201], { auth: true, body: { url: relay.url, secret, events } });
  let session: Session;
  try {
    session = await register();
  } catch (error) {
    await relay.close();
    throw error;
  }

  console.log(`Ready. Forwarding webhooks to ${forwardTo}${events ? ` (only ${events.join(', ')})` : ''}`);
  console.log(`  Webhook signing secret (listener "${name}"): ${secret}`);
  console.log(
    `  ${created ? 'Made now and kept in' : 'The same on every run; kept in'} ${file}. \`stablepay listen --print-secret${name === DEFAULT_LISTENER_NAME ? '' : ` --name ${name}`}\` prints it.`,
  );
  console.log(
    `  The simulator delivers to ${relay.url}; a failed forward is answered 502, so the simulator retries it on the spec's schedule.`,
  );
  console.log("  Ctrl-C to stop (the merchant's own webhook endpoint is left as it is).");

  // One line per change of what the heartbeat sees, never one per beat.
  let lastProblem = '';
  const say = (problem: string, text: string): void => {
    if (problem !== lastProblem && text) console.log(`listen: ${text}`);
    lastProblem = problem;
  };
  const beat = async (): Promise<void> => {
    let answer: { status: number; body: { merchantId?: string; message?: string } };
    try {
      answer = await remote.call('GET', `/control/v1/listeners/${session.id}`, { auth: true });
    } catch {
      say('unreachable', `cannot reach ${remote.baseUrl}; still trying (the secret stays the same)`);
      return;
    }
    if (answer.status === 200) {
      if (answer.body.merchantId !== session.merchantId) {
        session = { ...session, merchantId: answer.body.merchantId ?? '' };
        console.log('listen: the simulator was reset; still forwarding, with the same secret');
        say('', '');
      } else say('', '');
      return;
    }
    if (answer.status === 404) {
      try {
        session = await register();
        console.log('listen: the simulator had lost this listener (restarted?); registered again, with the same secret');
        say('', '');
      } catch (error) {
        say('register', `cannot register again: ${(error as Error).message}`);
      }
      return;
    }
    if (answer.status === 401 && !/control-token/i.test(answer.body?.message ?? '')) {
      say(
        'key',
        'the simulator no longer accepts this API key (a reset without --api-key gives the default merchant a new one; `stablepay reset` with STABLEPAY_API_KEY set keeps it): nothing is forwarded until the key is valid again',
      );
      return;
    }
    say(
      `status-${answer.status}`,
      `the simulator answers ${answer.status}${answer.body?.message ? ` (${answer.body.message})` : ''}; still trying`,
    );
  };
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beating.then(beat);
  }, HEARTBEAT_MS);

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(timer);
  await beating;
  await remote.call('DELETE', `/control/v1/listeners/${session.id}`, { auth: true }).catch(() => undefined);
  await relay.close();
  console.log('listen: stopped; this listener is deleted, any other listen goes on');
}
