// `stablepay trigger <event>`: makes a running simulator emit one webhook event by moving a payment
// (a new one, or --payment <id>) or a payout (--payout <id>) to the state that emits it, through
// the control API's customer, chain and clock actions and the merchant API, never by writing
// state. A state that cannot reach the event: exit 2 and the reason in one line.
import { type Command, Option } from 'commander';
import { CHAIN_IDS, findChain, isPairSupported, isToken, TOKENS } from '@stablepay/contract/chain-table';
import { UsageError } from './exit-codes.ts';
import { addRemoteOptions, Refused, Remote, remoteAction, type RemoteFlags } from './remote.ts';
import { isTriggerEvent, planTrigger, TRIGGER_EVENTS, type TriggerEvent, type TriggerStep } from './trigger-plan.ts';

interface TriggerFlags extends RemoteFlags {
  payment?: string;
  payout?: string;
  chain: string;
  token: string;
  amount: string;
  currency: string;
}

/** A well-formed address for new payouts; nothing is sent to it outside the simulator. */
const PAYOUT_RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay trigger payment.completed                       # a new payment, paid on Base in USDC',
  '  $ stablepay trigger payment.failed --chain 137 --token USDT',
  '  $ stablepay trigger payment.cancelled --payment 3f0c1a2e-5b7d-4c11-9e2f-0a1b2c3d4e5f',
  '  $ stablepay trigger payout.completed',
  '  $ stablepay trigger test',
  '',
  `Events: ${TRIGGER_EVENTS.join(', ')}`,
].join('\n');

interface Subject {
  kind: 'payment' | 'payout';
  id: string;
  /** Merchant API path of the subject, control API path of its actions. */
  api: string;
  control: string;
}

export function registerTriggerCommand(program: Command): Command {
  return addRemoteOptions(
    program
      .command('trigger')
      .argument('<event>', 'the webhook event to cause')
      .description('Make a running simulator emit a webhook event, the way a customer, a chain or time would'),
  )
    .addOption(new Option('--payment <id>', 'move this payment instead of creating one'))
    .addOption(new Option('--payout <id>', 'move this payout instead of creating one'))
    .addOption(new Option('--chain <chainId>', 'chain the customer pays on').default('8453'))
    .addOption(new Option('--token <symbol>', 'token the customer pays with').default('USDC'))
    .addOption(new Option('--amount <amount>', 'amount of a new payment or payout').default('25.00'))
    .addOption(new Option('--currency <code>', 'currency of a new payment or payout').default('USD'))
    .addHelpText(
      'after',
      `${EXAMPLES}\n\nExit codes: 0 emitted, 1 the simulator could not be reached, 2 usage error or a state that cannot reach the event.`,
    )
    .action(remoteAction('trigger', (event: string, flags: TriggerFlags) => trigger(event, flags)));
}

async function trigger(event: string, flags: TriggerFlags): Promise<void> {
  if (!isTriggerEvent(event)) throw new UsageError(`unknown event "${event}"; one of: ${TRIGGER_EVENTS.join(', ')}`);
  const remote = new Remote(flags);
  remote.requireKey();
  if (flags.payment && flags.payout) throw new UsageError('give --payment or --payout, not both');
  const kind = event === 'test' ? null : event.startsWith('payout.') ? 'payout' : 'payment';
  if ((flags.payment && kind !== 'payment') || (flags.payout && kind !== 'payout'))
    throw new UsageError(`${event} does not take ${flags.payment ? '--payment' : '--payout'}`);
  // Everything checked before the first request, so a refused flag never leaves a created payment behind.
  checkPair(flags.chain, flags.token);
  const existingId = flags.payment ?? flags.payout;
  if (existingId && kind !== null) subjectOf(kind, existingId);
  if (!AMOUNT.test(flags.amount))
    throw new UsageError(`--amount must be a decimal with at most 2 places, like 25 or 25.50, got "${flags.amount}"`);
  if (!/^[A-Z]{3}$/.test(flags.currency)) throw new UsageError(`--currency must be a 3-letter code like USD, got "${flags.currency}"`);
  const endpoint = await remote.call('GET', '/v1/webhooks', { auth: true });
  if (endpoint.status === 401) await remote.expect('GET', '/v1/webhooks', [200, 404], { auth: true });
  const endpointOn = endpoint.status === 200 && endpoint.body?.enabled !== false;
  const listeners = ((await remote.expect('GET', '/control/v1/listeners', [200], { auth: true })).data as unknown[]).length;
  if (!endpointOn && listeners === 0) {
    console.error(
      'note: this merchant has no enabled webhook endpoint and no listener, so the event is sent nowhere (stablepay listen --forward-to <url> starts one)',
    );
  }

  if (kind === null) {
    // POST /v1/webhooks/test needs an endpoint; the control API's test event reaches listeners without one.
    if (endpointOn) {
      const delivery = await remote.expect('POST', '/v1/webhooks/test', [202], { auth: true });
      console.log(`test: delivery ${delivery.id} queued${listeners > 0 ? `, and to ${listeners} listener(s)` : ''}`);
    } else {
      const queued = await remote.expect('POST', '/control/v1/listeners/test', [202], { auth: true });
      console.log(`test: queued to ${queued.listeners} listener(s)`);
    }
    return;
  }
  const existing = kind === 'payment' ? flags.payment : flags.payout;
  const subject = existing ? subjectOf(kind, existing) : await create(remote, kind, event, flags);
  if (event.endsWith('.created')) {
    if (existing) throw new Refused(`${event} is emitted only when a ${kind} is created: leave out --${kind}`);
    console.log(`${event}: ${kind} ${subject.id} created`);
    return;
  }
  const before = await remote.expect('GET', subject.api, [200], { auth: true });
  const plan = planTrigger(event, `${kind} ${subject.id}`, before.status);
  if (!plan.ok) throw new Refused(plan.reason);
  for (const step of plan.steps) await run(remote, subject, step, flags, before.expiresAt as string);
  const after = await remote.expect('GET', subject.api, [200], { auth: true });
  console.log(`${event}: ${kind} ${subject.id} ${before.status} -> ${after.status} (${plan.steps.join(', ')})`);
}

/** The amount grammar of the contract (docs/decisions.md); the currency's minimum is the service's to judge. */
const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;

function checkPair(chain: string, token: string): void {
  const chainId = Number(chain);
  const info = /^[0-9]+$/.test(chain) ? findChain(chainId) : undefined;
  if (!info) throw new UsageError(`--chain must be one of ${CHAIN_IDS.join(', ')}, got "${chain}"`);
  if (!isToken(token)) throw new UsageError(`--token must be ${TOKENS.join(' or ')}, got "${token}"`);
  if (!isPairSupported(chainId, token))
    throw new UsageError(`--token ${token} is not on chain ${chainId} (${info.name}); pick another --chain or --token`);
}

function subjectOf(kind: 'payment' | 'payout', id: string): Subject {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError(`--${kind} must be a ${kind} id (a UUID), got "${id}"`);
  return { kind, id, api: `/v1/${kind}s/${id}`, control: `/control/v1/${kind}s/${id}` };
}

async function create(remote: Remote, kind: 'payment' | 'payout', event: TriggerEvent, flags: TriggerFlags): Promise<Subject> {
  const money = { amount: flags.amount, currency: flags.currency };
  let created: { id: string };
  if (kind === 'payout')
    created = await remote.expect('POST', '/control/v1/payouts', [201], {
      auth: true,
      body: { ...money, recipientAddress: PAYOUT_RECIPIENT },
    });
  // payment.created is a dashboard create's event; an API create emits nothing (spec §6).
  else if (event === 'payment.created') created = await remote.expect('POST', '/control/v1/payments', [201], { auth: true, body: money });
  else created = await remote.expect('POST', '/v1/payments', [201], { auth: true, body: money });
  return subjectOf(kind, created.id);
}

async function run(remote: Remote, subject: Subject, step: TriggerStep, flags: TriggerFlags, expiresAt: string): Promise<void> {
  switch (step) {
    case 'submit':
      await remote.expect('POST', `${subject.control}/submit`, [200], { body: { chainId: Number(flags.chain), token: flags.token } });
      return;
    case 'confirm':
    case 'fail':
      await remote.expect('POST', `${subject.control}/${step}`, [200], { body: {} });
      return;
    case 'cancel':
      if (subject.kind === 'payment') await remote.expect('DELETE', subject.api, [200], { auth: true });
      else await remote.expect('POST', `${subject.control}/cancel`, [200], { body: {} });
      return;
    case 'expire': {
      // The merchant's own clock (the key's), just past this expiry and no further: no other merchant's time moves
      // (docs/decisions.md, "Clocks"). Its other payments due by then expire too, as they would in that much time.
      const clock = await remote.expect('GET', '/control/v1/clock', [200], { auth: true });
      const ms = Math.max(0, Date.parse(expiresAt) - Date.parse(clock.now)) + 1_000;
      await remote.expect('POST', '/control/v1/clock/advance', [200], { auth: true, body: { ms } });
      return;
    }
  }
}
