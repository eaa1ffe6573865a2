// `stablepay start`: parses flags (falling back to environment variables, then the embedded defaults), runs the
// simulator through startServer, prints how to reach it, and stops on every path a user can ask it to.
// Exit codes: 2 for a usage error (a bad flag value, an unknown fault), 1 when the simulator fails to start.
import { type Command, Option } from 'commander';
import { DEFAULTS, ENV } from '@stablepay/simulator/defaults';
import type { ServerOptions } from '@stablepay/simulator/server';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './exit-codes.ts';

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
  fork?: string[];
  secondApiKey?: string;
  logFormat: string;
  quiet: boolean;
  chaosDeliveries?: string;
  stateDir?: string;
  databaseUrl?: string;
  databasePoolSize?: string;
  deliveryLeaseMs?: string;
  maxPayments?: string;
  maxStoredMb?: string;
  replicas?: string;
}

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay start                                  # five chains, API, hosted page and control API on port 4000',
  '  $ stablepay start --port 0 --no-chains             # any free port; payments settle instantly in memory',
  '  $ STABLEPAY_API_KEY=pk_dev12345678 stablepay start --rate-limit 100 --seed 42',
].join('\n');

const OFF = /^(0|false|no|off)$/i;

function positiveInt(value: string, name: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

function port(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65_535) throw new UsageError(`port must be 0..65535, got "${value}"`);
  return Number(value);
}

function url(value: string, name: string): string {
  try {
    new URL(value);
    return value;
  } catch {
    throw new UsageError(`${name} must be an absolute URL, got "${value}"`);
  }
}

/** Chains named in the environment (a black-box run) are attached to; otherwise ours start, some maybe as forks. */
async function chainsOption(enabled: boolean, forkFlags: string[]): Promise<ServerOptions['chains']> {
  if (!enabled) return false;
  const [{ chainsFromEnv }, { parseForks }, { CHAIN_IDS }] = await Promise.all([
    import('@stablepay/chains/chains-from-env'),
    import('@stablepay/chains/fork-flags'),
    import('@stablepay/contract/chain-table'),
  ]);
  try {
    const rpcUrls = chainsFromEnv();
    if (rpcUrls) return { rpcUrls };
    return forkFlags.length > 0 ? { forks: parseForks(forkFlags, CHAIN_IDS) } : true;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Flags and environment to server options; throws UsageError on anything startServer would refuse. */
async function serverOptions(flags: StartFlags): Promise<ServerOptions> {
  // The fault names only, not the faults' wrappers (which import most of the simulator): nothing heavy loads
  // before the chains are starting.
  const { parseFaultList } = await import('@stablepay/simulator/resolve-faults');
  const options: ServerOptions = {
    host: flags.host,
    port: port(flags.port),
    // A black-box harness tells the target where it is reached (STABLEPAY_PUBLIC_URL): the pay page's links use it.
    ...(flags.payUrl !== undefined
      ? { payUrl: url(flags.payUrl, 'pay URL') }
      : process.env[ENV.publicUrl]
        ? { payUrl: url(process.env[ENV.publicUrl]!, ENV.publicUrl) }
        : {}),
    rateLimit: {
      limit: positiveInt(flags.rateLimit, 'rate limit'),
      windowSeconds: positiveInt(flags.rateLimitWindow, 'rate-limit window'),
    },
    ...(flags.apiKey ? { defaultApiKey: flags.apiKey } : {}),
    control: flags.control && !OFF.test(process.env[ENV.control] ?? ''),
    ...(flags.controlToken ? { controlToken: flags.controlToken } : {}),
    controlInsecure: flags.controlInsecure === true,
    chains: await chainsOption(flags.chains && !OFF.test(process.env[ENV.chains] ?? ''), flags.fork ?? []),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    faults: [...(flags.injectFault ?? []), ...parseFaultList(process.env[ENV.injectFaults])],
    ...(await requestLogOption(flags)),
    ...(await chaosOption(flags.chaosDeliveries)),
    // An empty STABLEPAY_STATE_DIR means unset, as for the other variables; a blank --state-dir is refused.
    ...(flags.stateDir !== undefined && flags.stateDir !== '' ? { stateDir: stateDirOption(flags.stateDir) } : {}),
    ...databaseOptions(flags),
    ...(flags.maxPayments !== undefined && flags.maxPayments !== '' ? { maxPayments: positiveInt(flags.maxPayments, 'max payments') } : {}),
    ...(flags.maxStoredMb !== undefined && flags.maxStoredMb !== ''
      ? { maxStoredMb: positiveInt(flags.maxStoredMb, 'max stored MiB') }
      : {}),
  };
  if (flags.secondApiKey) {
    const { checkSecondApiKey } = await import('./second-merchant.ts');
    try {
      checkSecondApiKey(flags.secondApiKey, flags.apiKey);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  }
  const { checkSimulatorOptions } = await import('@stablepay/simulator/check-options');
  try {
    checkSimulatorOptions(options);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return options;
}

/**
 * --replicas: how many simulators to run on one database behind a balancer (1: just this one). They share the
 * database, so it needs --database-url, and chains they can share: none, or chains already running (a chains file).
 */
function replicaCount(flags: StartFlags, options: ServerOptions): number {
  if (flags.replicas === undefined) return 1;
  const count = positiveInt(flags.replicas, '--replicas');
  if (count === 1) return 1;
  if (options.databaseUrl === undefined) throw new UsageError('--replicas needs --database-url: the replicas share its database');
  if (options.chains !== false && !(typeof options.chains === 'object' && 'rpcUrls' in options.chains))
    throw new UsageError(
      '--replicas needs --no-chains or chains they can share (start them with `stablepay chains` and set STABLEPAY_CHAINS_FILE): each replica would start five chains of its own',
    );
  return count;
}

/** --database-url (postgres:// or postgresql://) and its pool size; not beside --state-dir (two stores for one state). */
function databaseOptions(flags: StartFlags): Pick<ServerOptions, 'databaseUrl' | 'databasePoolSize' | 'deliveryLeaseMs'> {
  const given = flags.databaseUrl !== undefined && flags.databaseUrl !== '' ? flags.databaseUrl : undefined;
  if (given === undefined) {
    if (flags.databasePoolSize !== undefined) throw new UsageError('--database-pool-size needs --database-url');
    if (flags.deliveryLeaseMs !== undefined) throw new UsageError('--delivery-lease-ms needs --database-url');
    return {};
  }
  if (flags.stateDir !== undefined && flags.stateDir !== '')
    throw new UsageError('--state-dir (the embedded database) and --database-url (a Postgres server) cannot be used together');
  let protocol: string;
  try {
    protocol = new URL(given).protocol;
  } catch {
    throw new UsageError('--database-url must be a postgres:// URL');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:')
    throw new UsageError(`--database-url must be a postgres:// URL, got a ${protocol}// one`);
  return {
    databaseUrl: given,
    ...(flags.databasePoolSize !== undefined ? { databasePoolSize: positiveInt(flags.databasePoolSize, 'database pool size') } : {}),
    ...(flags.deliveryLeaseMs !== undefined ? { deliveryLeaseMs: positiveInt(flags.deliveryLeaseMs, 'delivery lease') } : {}),
  };
}

function stateDirOption(value: string): string {
  if (value.trim() === '') throw new UsageError('--state-dir must name a directory');
  return value;
}

async function chaosOption(spec: string | undefined): Promise<Pick<ServerOptions, 'chaosDeliveries'>> {
  if (spec === undefined || spec.trim() === '') return {};
  const { parseChaosSettings } = await import('@stablepay/simulator/webhooks');
  try {
    return { chaosDeliveries: parseChaosSettings(spec) };
  } catch (error) {
    throw new UsageError(`--chaos-deliveries: ${(error as Error).message}`);
  }
}

/** One line per request and per delivery attempt on stdout, unless --quiet. */
async function requestLogOption(flags: StartFlags): Promise<Pick<ServerOptions, 'log'>> {
  const { batchedLines, LOG_FORMATS, lineSink } = await import('@stablepay/simulator/logging');
  const format = LOG_FORMATS.find((f) => f === flags.logFormat);
  if (!format) throw new UsageError(`log format must be one of ${LOG_FORMATS.join(', ')}, got "${flags.logFormat}"`);
  const quiet = flags.quiet || /^(1|true|yes|on)$/i.test(process.env[ENV.quiet] ?? '');
  if (quiet) return {};
  // One write per turn of the event loop, not one per line; what is pending goes out before the stop line and at exit.
  const lines = batchedLines((chunk) => process.stdout.write(chunk));
  flushLogLines = lines.flush;
  process.on('exit', lines.flush);
  return { log: lineSink(format, (line) => (heldLines ? heldLines.push(line) : lines.line(line))) };
}

/** Writes the request log lines still pending (a no-op with --quiet). */
let flushLogLines = (): void => undefined;

/** Log lines of requests made before the banner is printed (the demo payment's), written right after it. */
let heldLines: string[] | undefined = [];
function releaseHeldLines(): void {
  const lines = heldLines ?? [];
  heldLines = undefined;
  for (const line of lines) process.stdout.write(`${line}\n`);
}

async function run(options: ServerOptions, demoPayment: boolean, secondApiKey: string | undefined, replicas: number): Promise<void> {
  // The Anvil processes boot while the rest of the simulator loads: the chain layer's own modules are loaded, and the
  // processes spawned, before the simulator's modules begin to load. The rejection is handled where startServer
  // awaits it; the no-op catch only keeps an early failure from counting as unhandled meanwhile.
  // Durable mode starts its chains from the state dir's checkpoints, inside startServer.
  const startingChains =
    options.chains && options.stateDir === undefined && replicas === 1
      ? (await import('@stablepay/simulator/start-chains')).startChainsFor(options)
      : undefined;
  startingChains?.catch(() => undefined);
  const [{ startServer }, { startupBanner }, { createDemoPayment }, { stopOnExitRequest }] = await Promise.all([
    import('@stablepay/simulator/server'),
    import('./start-banner.ts'),
    import('./demo-payment.ts'),
    import('./stop-on-exit-request.ts'),
  ]).catch((error: unknown) => {
    void startingChains?.then(
      (network) => network?.stop(),
      () => undefined,
    );
    throw error;
  });
  const { front: server, replicaUrls } =
    replicas > 1
      ? await (await import('./start-replicas.ts')).startReplicas(options, replicas)
      : { front: await startServer({ ...options, ...(startingChains ? { startingChains } : {}) }), replicaUrls: undefined };
  if (secondApiKey) (await import('./second-merchant.ts')).addSecondMerchant(server.simulator, secondApiKey);
  // Stop requests are honoured from here on, also while the demo payment is created.
  stopOnExitRequest({
    stop: () => server.close(),
    log: (line) => {
      flushLogLines();
      console.log(line);
    },
  });
  let demoPaymentUrl: string | undefined;
  try {
    // The demo payment is made on a first start only: a restart on a state dir already has it (and without --api-key
    // knows the default key only by its hash).
    const firstStart = server.simulator.restored === undefined;
    demoPaymentUrl = demoPayment && firstStart && server.simulator.defaultApiKey !== '' ? await createDemoPayment(server) : undefined;
  } catch (error) {
    await server.close();
    throw error;
  }
  console.log(startupBanner(server, demoPaymentUrl, replicaUrls));
  releaseHeldLines();
}

export function registerStartCommand(program: Command): Command {
  return program
    .command('start')
    .description('Run the payment service simulator (merchant API, hosted page, webhooks, control API, five local chains)')
    .addOption(new Option('--host <host>', 'interface to listen on').env(ENV.host).default(DEFAULTS.host))
    .addOption(new Option('--port <port>', 'port to listen on (0 = any free port)').env(ENV.port).default(String(DEFAULTS.port)))
    .addOption(new Option('--pay-url <url>', 'base URL of the hosted payment page (default: this server)').env(ENV.payUrl))
    .addOption(
      new Option('--rate-limit <n>', 'requests per window per API key').env(ENV.rateLimit).default(String(DEFAULTS.rateLimit.limit)),
    )
    .addOption(
      new Option('--rate-limit-window <seconds>', 'rate-limit window length')
        .env(ENV.rateLimitWindow)
        .default(String(DEFAULTS.rateLimit.windowSeconds)),
    )
    .addOption(new Option('--api-key <key>', "the default merchant's API key (pk_...; random when omitted)").env(ENV.apiKey))
    .addOption(new Option('--no-control', 'disable the control API at /control/v1'))
    .addOption(
      new Option('--control-token <token>', 'require this token (X-Control-Token header) on every control API request').env(
        ENV.controlToken,
      ),
    )
    .addOption(new Option('--control-insecure', 'serve the control API without a token on a non-loopback --host').env(ENV.controlInsecure))
    .addOption(new Option('--no-demo-payment', 'do not create the demo payment whose page URL is printed at startup'))
    .addOption(new Option('--no-chains', `do not start the five local chains: payments settle instantly in memory (also ${ENV.chains}=0)`))
    .addOption(
      new Option('--log-format <format>', 'request and webhook-attempt log lines: pretty or json').env(ENV.logFormat).default('pretty'),
    )
    .addOption(new Option('--quiet', `no request or webhook-attempt lines after the banner (also ${ENV.quiet}=1)`))
    .addOption(
      new Option(
        '--chaos-deliveries <effects>',
        'opt-in: duplicate=<p>,reorder=<p>,delay=<ms> (rehearse duplicate and out-of-order webhooks)',
      ).env(ENV.chaosDeliveries),
    )
    .addOption(
      new Option(
        '--state-dir <dir>',
        'durable mode: keep the whole state in this directory and start from it (in memory when omitted)',
      ).env(ENV.stateDir),
    )
    .addOption(
      new Option(
        '--database-url <url>',
        'durable mode on a Postgres server (postgres://user:password@host:port/db): the whole state in its database, migrations applied at start',
      ).env(ENV.databaseUrl),
    )
    .addOption(new Option('--database-pool-size <n>', 'connections to the --database-url server (default 10)'))
    .addOption(
      new Option(
        '--delivery-lease-ms <n>',
        "with --database-url: how long a process holds a pending webhook delivery; a stopped process's are taken over after it (default 30000)",
      ),
    )
    .addOption(
      new Option(
        '--max-payments <n>',
        'creates answer 507 once this many payments are held (default: no cap of its own; --max-stored-mb caps every record)',
      ).env(ENV.maxPayments),
    )
    .addOption(
      new Option(
        '--max-stored-mb <n>',
        'requests that may store more answer 507 once the records held (payments, deliveries and attempts, ledger entries, keys…) are estimated at this many MiB (default: 15% of the heap limit, --max-old-space-size)',
      ).env(ENV.maxStoredMb),
    )
    .addOption(
      new Option(
        '--replicas <n>',
        'with --database-url: run n simulators on that database behind a round-robin balancer on --port (the replicas on free ports)',
      ),
    )
    .addOption(new Option('--seed <seed>', 'make ids and transaction hashes reproducible').env(ENV.seed))
    .addOption(
      new Option(
        '--inject-fault <name>',
        `deliberately break the simulator with a named fault (repeatable; also ${ENV.injectFaults}=a,b); see simulator/faults/`,
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option(
        '--fork <chainId=rpcUrl>',
        'run this chain as an Anvil fork of a real endpoint (repeatable); STABLEPAY_RPC_URL_<chainId>/STABLEPAY_CHAINS_FILE instead attach to chains already running',
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option(
        '--second-api-key <key>',
        'also create a second merchant with this API key (merchant isolation in a black-box conformance run)',
      ).env('STABLEPAY_SECOND_API_KEY'),
    )
    .addHelpText('after', `${EXAMPLES}\n\nExit codes: 0 stopped on request, 1 the simulator failed to start, 2 usage error.`)
    .action(async (flags: StartFlags) => {
      let options: ServerOptions;
      let replicas: number;
      try {
        options = await serverOptions(flags);
        replicas = replicaCount(flags, options);
      } catch (error) {
        return fail(error, error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE);
      }
      try {
        await run(options, flags.demoPayment, flags.secondApiKey, replicas);
      } catch (error) {
        // A state dir of the wrong kind is the operator's to fix: one sentence, exit 2. A database that will not open
        // (damaged, unreachable) is a failure to start: one sentence, exit 1.
        const { StateDirError } = await import('@stablepay/simulator/persistence');
        if (error instanceof StateDirError) return fail(error, EXIT_USAGE);
        // A busy port, a chain that would not start: one readable line, no stack trace.
        fail(error, EXIT_FAILURE);
      }
    });
}

function fail(error: unknown, exitCode: number): void {
  console.error(`stablepay start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = exitCode;
}
