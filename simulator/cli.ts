// `stablepay start`: parse flags (falling back to environment variables, then the embedded
// defaults), run the server, print how to reach it, shut down cleanly on SIGINT/SIGTERM.
import type { Command } from 'commander';
import { Option } from 'commander';
import { DEFAULTS, ENV } from './config/defaults.ts';
import { describeControlExposure } from './control/index.ts';
import { faultBanner, parseFaultList } from './faults/index.ts';
import type { RunningServer } from './server.ts';
import { startServer } from './server.ts';

interface StartFlags {
  host: string;
  port: string;
  payUrl?: string;
  rateLimit: string;
  rateLimitWindow: string;
  apiKey?: string;
  control: boolean;
  controlToken?: string;
  controlInsecure?: boolean;
  chains: boolean;
  demoPayment: boolean;
  seed?: string;
  injectFault?: string[];
}

function positiveInt(value: string, name: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

function port(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65_535) throw new Error(`port must be 0..65535, got "${value}"`);
  return Number(value);
}

function chainLines(server: RunningServer): string[] {
  const network = server.simulator.chains;
  if (!network) return ['  Chains         none (--no-chains): payments settle instantly in memory'];
  return [
    `  Chains         ${network.chains.size} local Anvil chains; payments settle on-chain through ERC-4337 (EntryPoint ${network.entryPoint})`,
    ...[...network.chains.values()].map((c) => `    ${c.name.padEnd(16)} chainId ${String(c.chainId).padEnd(6)} ${c.rpcUrl}`),
  ];
}

export function startupBanner(server: RunningServer, demoPaymentUrl?: string): string {
  const key = server.simulator.defaultApiKey;
  const lines = [
    'stablepay simulator is running',
    `  Base URL       ${server.url}  (API under /v1; also the --base-url for stablepay conformance)`,
    `  Pay URL        ${server.payUrl}`,
    ...(demoPaymentUrl ? [`  Payment page   ${demoPaymentUrl}  (a demo payment of 25.00 USD: open it in a browser and pay)`] : []),
    `  Control API    ${server.controlUrl ?? '(disabled)'}${server.controlUrl ? `  (${describeControlExposure(server.controlExposure)})` : ''}`,
    ...chainLines(server),
    `  Default API key (shown only now): ${key}`,
    '',
    'Create a payment:',
    `  curl -s -X POST ${server.url}/v1/payments -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"amount":"100","currency":"USD"}'`,
    'Configure a webhook endpoint:',
    `  curl -s -X POST ${server.url}/v1/webhooks -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"url":"http://127.0.0.1:8080/webhooks"}'`,
  ];
  // Repeated last, so a deliberately broken simulator is the last thing the operator reads.
  if (server.simulator.faults.length > 0) lines.push('', faultBanner(server.simulator.faults));
  return lines.join('\n');
}

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('Run the payment service simulator (merchant API, webhooks, control API)')
    .addOption(new Option('--host <host>', 'interface to listen on').env(ENV.host).default(DEFAULTS.host))
    .addOption(new Option('--port <port>', 'port to listen on (0 = any free port)').env(ENV.port).default(String(DEFAULTS.port)))
    .addOption(new Option('--pay-url <url>', 'base URL of the hosted payment page (default: this server)').env(ENV.payUrl))
    .addOption(new Option('--rate-limit <n>', 'requests per window per API key').env(ENV.rateLimit).default(String(DEFAULTS.rateLimit.limit)))
    .addOption(new Option('--rate-limit-window <seconds>', 'rate-limit window length').env(ENV.rateLimitWindow).default(String(DEFAULTS.rateLimit.windowSeconds)))
    .addOption(new Option('--api-key <key>', 'the default merchant\'s API key (pk_...; random when omitted)').env(ENV.apiKey))
    .addOption(new Option('--no-control', 'disable the control API at /control/v1'))
    .addOption(new Option('--control-token <token>', 'require this token (X-Control-Token header) on every control API request').env(ENV.controlToken))
    .addOption(new Option('--control-insecure', 'serve the control API without a token on a non-loopback --host').env(ENV.controlInsecure))
    .addOption(new Option('--no-demo-payment', 'do not create the demo payment whose page URL is printed at startup'))
    .addOption(new Option('--no-chains', `do not start the five local chains: payments settle instantly in memory (also ${ENV.chains}=0)`))
    .addOption(new Option('--seed <seed>', 'make ids and transaction hashes reproducible').env(ENV.seed))
    .addOption(
      new Option('--inject-fault <name>', `deliberately break the simulator with a named fault (repeatable; also ${ENV.injectFaults}=a,b); see simulator/faults/`).argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .action(async (flags: StartFlags) => {
      try {
        await run(flags);
      } catch (error) {
        // Bad flags or a busy port: one readable line, no stack trace.
        console.error(`stablepay start: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      }
    });
}

/** A payment a newcomer can open and pay straight away, created through the public API like any other. */
async function createDemoPayment(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.simulator.defaultApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '25.00', currency: 'USD', title: 'Demo order', externalId: `demo-${Date.now()}` }),
  });
  const body = (await res.json()) as { paymentUrl?: string; message?: string };
  if (res.status !== 201 || !body.paymentUrl) throw new Error(`could not create the demo payment: ${res.status} ${body.message ?? ''}`);
  return body.paymentUrl;
}

async function run(flags: StartFlags): Promise<void> {
  const control = flags.control && !/^(0|false|no|off)$/i.test(process.env[ENV.control] ?? '');
  const chains = flags.chains && !/^(0|false|no|off)$/i.test(process.env[ENV.chains] ?? '');
  if (flags.payUrl !== undefined) new URL(flags.payUrl); // fail fast on a malformed URL
  const server = await startServer({
    host: flags.host,
    port: port(flags.port),
    ...(flags.payUrl ? { payUrl: flags.payUrl } : {}),
    rateLimit: { limit: positiveInt(flags.rateLimit, 'rate limit'), windowSeconds: positiveInt(flags.rateLimitWindow, 'rate-limit window') },
    ...(flags.apiKey ? { defaultApiKey: flags.apiKey } : {}),
    control,
    ...(flags.controlToken ? { controlToken: flags.controlToken } : {}),
    controlInsecure: flags.controlInsecure === true,
    chains,
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    faults: [...(flags.injectFault ?? []), ...parseFaultList(process.env[ENV.injectFaults])],
  });
  const demoPaymentUrl = flags.demoPayment ? await createDemoPayment(server) : undefined;
  console.log(startupBanner(server, demoPaymentUrl));
  const shutdown = (signal: string) => {
    console.log(`\n${signal} received, shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
