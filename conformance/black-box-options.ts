// Options of a black-box run, where the suite starts the implementation itself (DESIGN §3a): by command or by image,
// on chains the suite starts, with a clock the suite moves through libfaketime. Declared as data like every option.
import type { OptionDeclaration } from './option-declaration.ts';
import { availableParallelism } from 'node:os';

export interface TargetOptions {
  /** Shell command that starts the implementation (run in its own process group). */
  targetCommand?: string;
  /** Local container image of the implementation (never pulled). */
  targetImage?: string;
  /** Port the implementation listens on (inside the container for an image; PORT for a command). Default: 4000 for an image, any free port for a command. */
  targetPort?: number;
  /** Extra environment for the target, K=V. */
  targetEnv?: Record<string, string>;
  /** What "ready" means: an HTTP path answering (`/v1/payments`, the default) or `log:<text>` appearing in the output. */
  targetWait?: string;
  /** Seconds to wait for the target to become ready. */
  targetStartTimeoutSeconds?: number;
  /** Path of libfaketimeMT; `false` runs the target on the real clock (clock checks are then not exercised). */
  faketime?: string | false;
  /** Run testcontainers' Ryuk reaper (its image must be present locally). Default off: the suite tears down itself. */
  reaper?: boolean;
  /**
   * Target instances the suite starts (black-box lanes): the main one and spares, each with its own chains and clock,
   * for the checks that would hold the main one alone. 1: none (a target that cannot run twice: fixed ports, one
   * shared store).
   */
  instances?: number;
  /** chainId -> URL: fork these chains instead of using the baked state. */
  forks?: Record<number, string>;
  /** API key of a second merchant (handed to a started target as STABLEPAY_SECOND_API_KEY): merchant isolation without a control API. */
  secondApiKey?: string;
  /** Black-box run: pay through the hosted page with the customer agent (default true; `--no-customer` turns it off). */
  customer?: boolean;
  /** Payments the customer agent makes at once (browser contexts of its one Chromium). */
  customerParallel?: number;
  /** Seconds from the pay click to the end state on the page and SUCCESSFUL (or the expected end) in the API. */
  customerSettleTimeout?: number;
  /** JSON file overriding the page contract's roles and names (conformance/customer/page-contract.ts). */
  pageContract?: string;
}

export const TARGET_DEFAULTS = {
  wait: '/v1/payments',
  startTimeoutSeconds: 60,
  imagePort: 4000,
  /** Debian's `faketime` package (multi-threaded variant: Node has worker threads). */
  faketimeCandidates: [
    '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1',
    '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1',
    '/usr/lib/faketime/libfaketimeMT.so.1',
  ],
  /** Where a container finds the library and the timestamp file. */
  containerFaketimeDir: '/stablepay-faketime',
  stopTimeoutMs: 5_000,
  /**
   * One context more than the machine has cores (at least 2, at most 6): on 2 cores 3 contexts beat 2 since Chromium
   * runs without its GPU emulation (black-box run 48.3 s with 2, 42.1 s with 3, 42.9 s with 4; bench/README.md).
   */
  customerParallel: Math.max(2, Math.min(6, availableParallelism() + 1)),
  /** From the pay click to the end on the page and in the API (customer/step-timeouts.ts). */
  customerSettleTimeoutSeconds: 90,
  /** The main instance and its spares when the run has several workers (`bench/conformance-workers.ts --instances 2,4` compares 1, 2 and 3 spares). */
  instances: 3,
} as const;

/** Every variable a started target finds in its environment (`conformance --help`, docs/implementers.md). */
export const TARGET_ENVIRONMENT: { name: string; meaning: string }[] = [
  { name: 'PORT (also STABLEPAY_PORT)', meaning: 'the port to listen on' },
  { name: 'STABLEPAY_PUBLIC_URL', meaning: 'where the suite and its browser reach you: build paymentUrl from it' },
  {
    name: 'STABLEPAY_API_KEY',
    meaning: "the key of the merchant the suite acts as (--api-key, else one made for the run): accept it as a merchant's key",
  },
  { name: 'STABLEPAY_SECOND_API_KEY', meaning: "a second merchant's key, with --second-api-key (merchant isolation)" },
  {
    name: 'STABLEPAY_RPC_URL_<chainId>',
    meaning: 'the JSON-RPC URL of each of the five chains the suite started (1, 42161, 8453, 137, 56)',
  },
  {
    name: 'STABLEPAY_CHAINS_FILE',
    meaning: 'a JSON file: the chains, token addresses and decimals, funded test accounts, the USDC admin keys',
  },
  {
    name: 'LD_PRELOAD, FAKETIME_TIMESTAMP_FILE, FAKETIME_NO_CACHE',
    meaning: 'libfaketime: the suite moves your clock (monotonic timers jump too: keep leases off them)',
  },
  { name: '--target-env K=V', meaning: 'anything else you pass' },
];

export const TARGET_OPTION_DECLARATIONS: OptionDeclaration<keyof TargetOptions>[] = [
  {
    name: 'targetCommand',
    flags: '--target-command <cmd>',
    description: 'start the implementation with this shell command (own process group; its environment is listed below)',
    parser: 'string',
  },
  {
    name: 'targetImage',
    flags: '--target-image <ref>',
    description: 'start the implementation from this local container image (testcontainers; never pulled)',
    parser: 'string',
  },
  {
    name: 'targetPort',
    flags: '--target-port <port>',
    description: 'port the implementation listens on (in the container for --target-image)',
    parser: 'positive-int',
    defaultText: `${TARGET_DEFAULTS.imagePort} for an image, a free port for a command`,
  },
  { name: 'targetEnv', flags: '--target-env <K=V>', description: 'extra environment for the target (repeatable)', parser: 'key-value' },
  {
    name: 'targetWait',
    flags: '--target-wait <path|log:text>',
    description: 'ready when this HTTP path answers, or when log:<text> is printed',
    parser: 'string',
    defaultText: TARGET_DEFAULTS.wait,
  },
  {
    name: 'targetStartTimeoutSeconds',
    flags: '--target-start-timeout <seconds>',
    description: 'how long the target may take to become ready',
    parser: 'positive-int',
    defaultText: String(TARGET_DEFAULTS.startTimeoutSeconds),
  },
  {
    name: 'faketime',
    flags: '--faketime <path>',
    description: 'libfaketimeMT preloaded into the target to move its clock',
    parser: 'string',
    defaultText: "Debian's faketime package",
  },
  {
    name: 'faketime',
    flags: '--no-faketime',
    description: 'run the target on the real clock (clock checks are not exercised)',
    parser: 'flag',
  },
  { name: 'reaper', flags: '--reaper', description: "run testcontainers' Ryuk reaper (its image must be present locally)", parser: 'flag' },
  {
    name: 'secondApiKey',
    flags: '--second-api-key <key>',
    description: `API key of a second merchant, for merchant isolation without a control API (or set ${'STABLEPAY_SECOND_API_KEY'})`,
    parser: 'string',
  },
  {
    name: 'customer',
    flags: '--no-customer',
    description: 'black-box run: do not pay through the hosted page in a browser (customer checks are not exercised)',
    parser: 'flag',
  },
  {
    name: 'customerParallel',
    flags: '--customer-parallel <n>',
    description: 'black-box run: payments the browser customer makes at once',
    parser: 'positive-int',
    defaultText: 'one more than the cores, 2 to 6',
  },
  {
    name: 'customerSettleTimeout',
    flags: '--customer-settle-timeout <seconds>',
    description: 'black-box run: how long a payment made through the hosted page may take to settle (page and API) before it fails',
    parser: 'seconds',
    defaultText: String(TARGET_DEFAULTS.customerSettleTimeoutSeconds),
  },
  {
    name: 'pageContract',
    flags: '--page-contract <file>',
    description: 'JSON file overriding the roles and accessible names the customer looks for on the hosted page',
    parser: 'string',
  },
  {
    name: 'instances',
    flags: '--instances <n>',
    description:
      'black-box run: start n instances of the target, each with its own chains and clock; the checks that move the clock, measure the rate limit or need the main merchant alone run on the spares beside the rest (1: the target cannot run twice)',
    parser: 'positive-int',
    defaultText: `${TARGET_DEFAULTS.instances} when the suite picks the port and runs more than one worker, else 1`,
  },
  {
    name: 'forks',
    flags: '--fork <chainId=rpcUrl>',
    description: 'black-box run: this chain is an Anvil fork of a real endpoint (repeatable)',
    parser: 'fork',
  },
];
