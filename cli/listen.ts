// `stablepay listen --forward-to <url>`: points the merchant's webhook endpoint at a local relay,
// prints the signing secret once, and forwards every delivery with its original headers and body,
// printing one line each. On exit the endpoint goes back to where it pointed (or is disabled if
// listen created it); the secret stays the one printed (a rotation cannot be undone).
import { type Command, Option } from 'commander';
import { UsageError } from './exit-codes.ts';
import { addRemoteOptions, Remote, remoteAction, type RemoteFlags } from './remote.ts';
import { TRIGGER_EVENTS } from './trigger-plan.ts';
import { startRelay, type RelayedDelivery } from './webhook-relay.ts';

interface ListenFlags extends RemoteFlags {
  forwardTo: string;
  events?: string;
  port: string;
}

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay listen --forward-to http://localhost:3000/webhooks',
  '  $ stablepay listen --forward-to http://localhost:3000/webhooks --events payment.completed,payment.failed',
  '  $ STABLEPAY_API_KEY=pk_... stablepay listen --forward-to http://localhost:3000/webhooks --base-url http://127.0.0.1:4100',
].join('\n');

export function registerListenCommand(program: Command): Command {
  return addRemoteOptions(
    program.command('listen').description("Forward the simulator's webhook deliveries to a local URL, signed as sent"),
  )
    .addOption(new Option('--forward-to <url>', 'where each delivery is forwarded').makeOptionMandatory())
    .addOption(new Option('--events <list>', 'forward only these events, comma-separated (the rest are acknowledged)'))
    .addOption(new Option('--port <port>', 'port of the local relay (0 = any free port)').default('0'))
    .addHelpText('after', `${EXAMPLES}\n\nStops on Ctrl-C. Exit codes: 0 stopped, 1 the simulator could not be reached, 2 usage error.`)
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
  return events;
}

function line(d: RelayedDelivery): string {
  const time = new Date().toISOString().slice(11, 19);
  const outcome = !d.forwarded ? 'not forwarded (--events)' : d.status !== null ? `-> ${d.status}` : `-> ${d.error}`;
  return `${time}  ${d.event.padEnd(18)} ${d.subject ?? '-'}  ${outcome}${d.forwarded ? ` (${d.ms} ms)` : ''}`;
}

async function listen(flags: ListenFlags): Promise<void> {
  const remote = new Remote(flags);
  remote.requireKey();
  try {
    new URL(flags.forwardTo);
  } catch {
    throw new UsageError(`--forward-to must be an absolute URL, got "${flags.forwardTo}"`);
  }
  if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65_535) throw new UsageError(`--port must be 0..65535, got "${flags.port}"`);
  const events = parseEvents(flags.events);
  const relay = await startRelay(
    { forwardTo: flags.forwardTo, events, onDelivery: (d) => console.log(line(d)) },
    '127.0.0.1',
    Number(flags.port),
  );

  let restore: () => Promise<unknown>;
  let secret: string;
  try {
    const existing = await remote.call('GET', '/v1/webhooks', { auth: true });
    if (existing.status === 200) {
      const original = existing.body as { url: string; enabled: boolean };
      await remote.expect('PUT', '/v1/webhooks', [200], { auth: true, body: { url: relay.url, enabled: true } });
      restore = () => remote.call('PUT', '/v1/webhooks', { auth: true, body: { url: original.url, enabled: original.enabled } });
      // The only way to learn a secret after its endpoint was made is to rotate it.
      secret = (await remote.expect('POST', '/v1/webhooks/regenerate-secret', [200], { auth: true })).secret;
    } else {
      if (existing.status !== 404) await remote.expect('GET', '/v1/webhooks', [200, 404], { auth: true });
      secret = (await remote.expect('POST', '/v1/webhooks', [201], { auth: true, body: { url: relay.url } })).secret;
      restore = () => remote.call('PUT', '/v1/webhooks', { auth: true, body: { enabled: false } });
    }
  } catch (error) {
    await relay.close();
    throw error;
  }

  console.log(`Ready. Forwarding webhooks to ${flags.forwardTo}${events ? ` (only ${events.join(', ')})` : ''}`);
  console.log(`  Webhook signing secret (shown once): ${secret}`);
  console.log(
    `  The simulator delivers to ${relay.url}; a failed forward is answered 502, so the simulator retries it on the spec's schedule.`,
  );
  console.log('  Ctrl-C to stop (the endpoint goes back to where it pointed).');

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await restore().catch(() => undefined);
  await relay.close();
  console.log('listen: stopped; endpoint restored');
}
