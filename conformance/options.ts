// Options of a conformance run, declared once as data: the CLI builds its flags from these
// declarations, and runConformance() resolves and validates the same shape. Defaults: defaults.ts.
import { API_KEY_ENV, CONTROL_TOKEN_ENV, DEFAULTS, REPORT_FORMATS, type ReportFormat } from './defaults.ts';
import type { CheckResult, RunLimits } from './types.ts';
import { TARGET_OPTION_DECLARATIONS, type TargetOptions } from './black-box-options.ts';
import { INTEGRITY_OPTION_DECLARATIONS, type IntegrityOptions } from './integrity-options.ts';
import { GATE_OPTION_DECLARATIONS, type GateOptions } from './gate-options.ts';
import type { OptionDeclaration as BaseDeclaration, OptionParser } from './option-declaration.ts';
import { UsageError } from './usage-error.ts';

export { UsageError };

/** The implementation cannot be used as configured (unreachable, key refused, ...). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type ProgressEvent =
  | {
      type: 'start';
      total: number;
      capabilities: Record<string, boolean>;
      notes: string[];
      seed: number;
      limits: RunLimits;
      workers?: number;
    }
  /** `running`: the checks running now, this one included (several with --workers above 1). */
  | { type: 'check-start'; index: number; total: number; id: string; title: string; running?: string[] }
  | { type: 'check-progress'; id: string; message: string }
  /** The running check has waited `waitedMs` on one request (shown after a few seconds, then now and then). */
  | { type: 'check-waiting'; id: string; on: string; waitedMs: number; deadlineMs: number }
  /** `index`: how many checks have ended; `running`: those still running. */
  | { type: 'check-end'; index: number; total: number; result: CheckResult; running?: string[] }
  /** The run stopped early (--max-failures / -x, a signal, --max-run-time); the remaining checks are reported as skipped. */
  | { type: 'stopped'; reason: string; remaining: number };

export interface ConformanceOptions extends TargetOptions, IntegrityOptions, GateOptions {
  /** Required unless the suite starts the target (--target-command/--target-image). */
  baseUrl?: string;
  /** Falls back to the STABLEPAY_API_KEY environment variable. */
  apiKey?: string;
  /** Control API base URL; default: <baseUrl>/control/v1 when it answers. */
  controlUrl?: string;
  /** Sent as X-Control-Token on every control API call; falls back to STABLEPAY_CONTROL_TOKEN. */
  controlToken?: string;
  control?: boolean;
  webhooks?: boolean;
  webhookListen?: string;
  webhookPublicUrl?: string;
  strict?: boolean;
  only?: string[];
  skip?: string[];
  seed?: number;
  runs?: number;
  reportDir?: string;
  formats?: ReportFormat[];
  /** fast-check replay paths keyed by property (`<checkId>/<property>`). */
  replay?: Record<string, string>;
  progress?: boolean;
  /** Console output sink (default: process.stdout). */
  write?: (text: string) => void;
  onProgress?: (event: ProgressEvent) => void;
  /** Deadline of one request in seconds (--request-timeout): connect, headers and the whole body. */
  requestTimeout?: number;
  /** The same in milliseconds (programmatic; wins over requestTimeout). */
  requestTimeoutMs?: number;
  /** A response body is read up to this many bytes (--max-response-bytes); past it the request is aborted. */
  maxResponseBytes?: number;
  /** The run ends cleanly after this many seconds (--max-run-time): what ran is reported, the rest listed as not run. */
  maxRunTime?: number;
  /** Aborting it stops the run the same way (the CLI aborts it on SIGINT/SIGTERM with a RunStop naming the signal). */
  signal?: AbortSignal;
  propertyTimeLimitMs?: number;
  checkTimeLimitMs?: number;
  webhookWaitMs?: number;
  webhookQuietMs?: number;
  retryToleranceSeconds?: number;
  /** Stop after this many failed checks (--max-failures N); `failFast` (-x) means 1. */
  maxFailures?: number;
  failFast?: boolean;
  /** Checks run at once where their declared resources allow (--workers); 1 runs them one after another. */
  workers?: number;
  /** Extra request headers sent on every request to the implementation (-H 'Name: value'), e.g. a gateway token. */
  headers?: Record<string, string>;
  /** Progress as one rewritten line with an ETA (a terminal) instead of one line per check. Default: stdout is a TTY. */
  tty?: boolean;
  /** Read by the CLI only: the configuration file (see cli/config-file.ts). */
  config?: string;
  /** The implementation profile (premises/profile.ts): a JSON/YAML file, or the profile itself. */
  profile?: string | Record<string, unknown>;
}

export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  controlUrl: string | null;
  /** True when the user named the control URL: then it must answer. */
  controlExplicit: boolean;
  controlToken: string | undefined;
  webhooks: boolean;
  webhookListen: { host: string; port: number };
  webhookPublicUrl: string | undefined;
  strict: boolean;
  only: string[];
  skip: string[];
  seed: number;
  runs: number;
  reportDir: string;
  formats: ReportFormat[];
  replay: Record<string, string>;
  progress: boolean;
  write: (text: string) => void;
  onProgress: (event: ProgressEvent) => void;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  /** null: the run has no deadline. */
  maxRunTimeMs: number | null;
  propertyTimeLimitMs: number;
  checkTimeLimitMs: number;
  webhookWaitMs: number;
  webhookQuietMs: number;
  retryToleranceSeconds: number;
  /** A second merchant's key (merchant isolation without a control API). */
  secondApiKey?: string;
  /** Stop after this many failed checks; null: run everything. */
  maxFailures: number | null;
  workers: number;
  headers: Record<string, string>;
  tty: boolean;
  /** False when --report-dir was not given (then a JSON-only run writes to stdout). */
  reportDirExplicit: boolean;
}

export type { OptionParser } from './option-declaration.ts';
/** Any option of `stablepay conformance` (`list` is the flag that lists the checks). */
export type OptionDeclaration = BaseDeclaration<keyof ConformanceOptions | 'list'>;

export const OPTION_DECLARATIONS: OptionDeclaration[] = [
  { name: 'baseUrl', flags: '--base-url <url>', description: 'base URL of the implementation under test', parser: 'url' },
  { name: 'apiKey', flags: '--api-key <key>', description: `API key of a merchant (or set ${API_KEY_ENV})`, parser: 'string' },
  {
    name: 'controlUrl',
    flags: '--control-url <url>',
    description: 'control API base URL (unlocks lifecycle, clock and multi-merchant checks)',
    parser: 'url',
    defaultText: `<base-url>${DEFAULTS.controlPath} if it answers`,
  },
  {
    name: 'controlToken',
    flags: '--control-token <token>',
    description: `token the control API requires (X-Control-Token header; or set ${CONTROL_TOKEN_ENV})`,
    parser: 'string',
  },
  { name: 'control', flags: '--no-control', description: 'do not use a control API even if one answers', parser: 'flag' },
  {
    name: 'webhookListen',
    flags: '--webhook-listen <host:port>',
    description: 'address the suite webhook receiver listens on',
    parser: 'host-port',
    defaultText: DEFAULTS.webhookListen,
  },
  {
    name: 'webhookPublicUrl',
    flags: '--webhook-public-url <url>',
    description: 'URL at which the implementation reaches the receiver',
    parser: 'url',
    defaultText: 'http://<listen address>',
  },
  { name: 'webhooks', flags: '--no-webhooks', description: 'do not start the webhook receiver', parser: 'flag' },
  { name: 'strict', flags: '--strict', description: 'failures of assumed requirements fail instead of warn', parser: 'flag' },
  {
    name: 'only',
    flags: '--only <ids>',
    description: 'run only these checks: check ids, id prefixes (auth.*), tags or requirement ids, comma-separated',
    parser: 'list',
  },
  { name: 'skip', flags: '--skip <ids>', description: 'skip these checks (same forms as --only), e.g. --skip slow', parser: 'list' },
  { name: 'seed', flags: '--seed <n>', description: 'seed for every generated input (default: random, printed)', parser: 'int' },
  {
    name: 'runs',
    flags: '--runs <n>',
    description: 'fast-check runs per property',
    parser: 'positive-int',
    defaultText: String(DEFAULTS.runs),
  },
  {
    name: 'reportDir',
    flags: '--report-dir <dir>',
    description: 'directory for report files',
    parser: 'string',
    defaultText: DEFAULTS.reportDir,
  },
  {
    name: 'formats',
    flags: '--format <list>',
    description: `report formats, comma-separated: ${REPORT_FORMATS.join(',')}`,
    parser: 'formats',
    defaultText: DEFAULTS.formats.join(','),
  },
  {
    name: 'replay',
    flags: '--replay <property=path...>',
    description: 'replay a recorded fast-check counterexample (from the JSON report)',
    parser: 'replay',
  },
  { name: 'progress', flags: '--no-progress', description: 'no per-check progress lines', parser: 'flag' },
  { name: 'list', flags: '--list', description: 'list the checks and exit', parser: 'flag' },
  {
    name: 'requestTimeout',
    flags: '--request-timeout <seconds>',
    description: 'deadline of one request to the implementation, its control API included: connect, headers and the whole body',
    parser: 'seconds',
    defaultText: String(DEFAULTS.requestTimeoutMs / 1000),
  },
  {
    name: 'maxResponseBytes',
    flags: '--max-response-bytes <n>',
    description: 'read at most n bytes of a response body (suffixes k, M: 512k, 8M); a longer one is aborted and reported',
    parser: 'bytes',
    defaultText: '8M',
  },
  {
    name: 'maxRunTime',
    flags: '--max-run-time <seconds>',
    description: 'end the run after this long (suffixes s, m, h: 90, 15m): what ran is reported, the rest listed as not run; exit 2',
    parser: 'seconds',
    defaultText: 'no limit',
  },
  {
    name: 'maxFailures',
    flags: '--max-failures <n>',
    description: 'stop after n failed checks; the rest are reported as skipped (exit 1)',
    parser: 'positive-int',
  },
  {
    name: 'workers',
    flags: '--workers <n>',
    description:
      'run up to n checks at once; a check that moves the clock, measures the rate limit or repoints the main webhook endpoint still runs alone, and verdicts are the same as with 1',
    parser: 'positive-int',
    defaultText: `${DEFAULTS.workers} on this machine (twice the cores, 4 to 8); 1 with --max-failures or -x`,
  },
  {
    name: 'failFast',
    flags: '-x, --fail-fast',
    description: 'stop after the first failed check (same as --max-failures 1)',
    parser: 'flag',
  },
  {
    name: 'headers',
    flags: '-H, --header <line>',
    description: "extra request header 'Name: value' on every request to the implementation (repeatable)",
    parser: 'header',
  },
  {
    name: 'profile',
    flags: '--profile <file>',
    description:
      'implementation profile (JSON or YAML): the shapes the spec leaves open that the suite cannot discover, e.g. the body that creates an API key (docs/implementers.md); also the `profile` section of the config file',
    parser: 'string',
  },
  {
    name: 'config',
    flags: '--config <file>',
    description: 'read flags from this JSON or YAML file (command-line flags override it)',
    parser: 'string',
    defaultText: 'stablepay.config.json|yaml|yml in the current directory',
  },
  ...GATE_OPTION_DECLARATIONS,
  ...TARGET_OPTION_DECLARATIONS,
  ...INTEGRITY_OPTION_DECLARATIONS,
];

export function parseOptionValue(parser: OptionParser, raw: string, flag: string): unknown {
  switch (parser) {
    case 'url': {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new UsageError(`${flag}: "${raw}" is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag}: only http(s) URLs`);
      return raw.replace(/\/+$/, '');
    }
    case 'int':
    case 'positive-int': {
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`${flag}: "${raw}" is not an integer`);
      const value = Number(raw);
      if (!Number.isSafeInteger(value) || (parser === 'positive-int' && value < 1)) {
        throw new UsageError(`${flag}: "${raw}" is out of range`);
      }
      return value;
    }
    case 'percent': {
      const value = Number(raw.replace(/\s*%$/, ''));
      if (!/^\d+(\.\d+)?\s*%?$/.test(raw.trim()) || value > 100)
        throw new UsageError(`${flag}: "${raw}" is not a percentage between 0 and 100`);
      return value;
    }
    case 'seconds': {
      const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(raw.trim());
      const value = match ? Number(match[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : NaN;
      if (!(value > 0) || !Number.isFinite(value))
        throw new UsageError(`${flag}: "${raw}" is not a positive duration in seconds (e.g. 15, 0.5, 10m)`);
      return value;
    }
    case 'bytes': {
      const match = /^(\d+(?:\.\d+)?)\s*(k|kib|kb|m|mib|mb|g|gib|gb)?$/i.exec(raw.trim());
      const unit = (match?.[2] ?? '').toLowerCase().charAt(0);
      const value = match ? Math.floor(Number(match[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit] ?? NaN)) : NaN;
      if (!Number.isSafeInteger(value) || value < 1)
        throw new UsageError(`${flag}: "${raw}" is not a size in bytes (e.g. 1048576, 512k, 8M)`);
      return value;
    }
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    case 'formats': {
      const formats = raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      for (const format of formats) {
        if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
          throw new UsageError(`${flag}: unknown format "${format}" (known: ${REPORT_FORMATS.join(', ')})`);
        }
      }
      if (formats.length === 0) throw new UsageError(`${flag}: give at least one format`);
      return formats;
    }
    case 'host-port':
      return parseHostPort(raw, flag);
    case 'replay': {
      const index = raw.lastIndexOf('=');
      if (index <= 0) throw new UsageError(`${flag}: expected <checkId>/<property>=<path>`);
      return [raw.slice(0, index), raw.slice(index + 1)];
    }
    case 'key-value': {
      const index = raw.indexOf('=');
      if (index <= 0) throw new UsageError(`${flag}: expected K=V, got "${raw}"`);
      return [raw.slice(0, index), raw.slice(index + 1)];
    }
    case 'fork': {
      const match = /^([0-9]+)=(https?:\/\/.+)$/.exec(raw);
      if (!match) throw new UsageError(`${flag}: expected <chainId>=<http(s) URL>, got "${raw}"`);
      return [Number(match[1]), match[2]];
    }
    case 'header':
      return parseHeaderLine(raw, flag);
    default:
      return raw;
  }
}

/** `Name: value` as curl takes it; the name must be an HTTP token and the value printable. */
export function parseHeaderLine(raw: string, flag = '--header'): [string, string] {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(raw);
  // eslint-disable-next-line no-control-regex
  if (!match || /[\u0000-\u0008\u000a-\u001f\u007f]/.test(match[2]!)) throw new UsageError(`${flag}: expected 'Name: value', got "${raw}"`);
  if (match[1]!.toLowerCase() === 'authorization')
    throw new UsageError(`${flag}: Authorization is set from --api-key; give another header`);
  return [match[1]!, match[2]!];
}

export function parseHostPort(raw: string, flag = '--webhook-listen'): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(raw);
  if (!match) throw new UsageError(`${flag}: expected HOST:PORT, got "${raw}"`);
  const port = Number(match[2]);
  if (port > 65535) throw new UsageError(`${flag}: port ${port} out of range`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Seconds given as data (programmatic or a config file) in milliseconds; refused when not a positive number. */
export function durationOptionMs(seconds: number | undefined, flag: string): number | undefined {
  if (seconds === undefined) return undefined;
  if (typeof seconds !== 'number' || !(seconds > 0) || !Number.isFinite(seconds))
    throw new UsageError(`${flag} must be a positive number of seconds`);
  return Math.round(seconds * 1000);
}

function positiveIntegerOption(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive integer`);
  return value;
}

export function resolveOptions(options: ConformanceOptions, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  if (!options.baseUrl) throw new UsageError('--base-url is required');
  const baseUrl = parseOptionValue('url', options.baseUrl, '--base-url') as string;
  const apiKey = options.apiKey ?? env[API_KEY_ENV];
  if (!apiKey) throw new UsageError(`--api-key is required (or set ${API_KEY_ENV})`);
  const controlEnabled = options.control ?? DEFAULTS.control;
  const controlUrl = options.controlUrl ? (parseOptionValue('url', options.controlUrl, '--control-url') as string) : null;
  const runs = options.runs ?? DEFAULTS.runs;
  if (options.maxFailures !== undefined && (!Number.isSafeInteger(options.maxFailures) || options.maxFailures < 1))
    throw new UsageError('--max-failures must be a positive integer');
  for (const [name, value] of Object.entries(options.headers ?? {})) parseHeaderLine(`${name}: ${value}`);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new UsageError('--runs must be a positive integer');
  const formats = options.formats ?? [...DEFAULTS.formats];
  parseOptionValue('formats', formats.join(','), '--format');
  if (formats.includes('console') && formats.includes('ndjson'))
    throw new UsageError('--format: console and ndjson both write to stdout; choose one');
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  if (!Number.isSafeInteger(seed)) throw new UsageError('--seed must be an integer');
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const secondApiKey = options.secondApiKey ?? env.STABLEPAY_SECOND_API_KEY;
  if (secondApiKey !== undefined && secondApiKey === apiKey)
    throw new UsageError("--second-api-key must be another merchant's key, not the --api-key");
  return {
    baseUrl,
    apiKey,
    controlUrl: controlEnabled ? (controlUrl ?? `${baseUrl}${DEFAULTS.controlPath}`) : null,
    controlExplicit: controlEnabled && controlUrl !== null,
    controlToken: options.controlToken ?? (env[CONTROL_TOKEN_ENV] || undefined),
    webhooks: options.webhooks ?? DEFAULTS.webhooks,
    webhookListen: parseHostPort(options.webhookListen ?? DEFAULTS.webhookListen),
    webhookPublicUrl: options.webhookPublicUrl
      ? (parseOptionValue('url', options.webhookPublicUrl, '--webhook-public-url') as string)
      : undefined,
    strict: options.strict ?? DEFAULTS.strict,
    only: options.only ?? [...DEFAULTS.only],
    skip: options.skip ?? [...DEFAULTS.skip],
    seed,
    runs,
    reportDir: options.reportDir ?? DEFAULTS.reportDir,
    formats,
    replay: options.replay ?? {},
    progress: options.progress ?? DEFAULTS.progress,
    write,
    onProgress: options.onProgress ?? (() => {}),
    requestTimeoutMs:
      options.requestTimeoutMs ?? durationOptionMs(options.requestTimeout, '--request-timeout') ?? DEFAULTS.requestTimeoutMs,
    maxResponseBytes: positiveIntegerOption(options.maxResponseBytes, '--max-response-bytes') ?? DEFAULTS.maxResponseBytes,
    maxRunTimeMs: durationOptionMs(options.maxRunTime, '--max-run-time') ?? null,
    propertyTimeLimitMs: options.propertyTimeLimitMs ?? DEFAULTS.propertyTimeLimitMs,
    checkTimeLimitMs: options.checkTimeLimitMs ?? DEFAULTS.checkTimeLimitMs,
    webhookWaitMs: options.webhookWaitMs ?? DEFAULTS.webhookWaitMs,
    webhookQuietMs: options.webhookQuietMs ?? DEFAULTS.webhookQuietMs,
    retryToleranceSeconds: options.retryToleranceSeconds ?? DEFAULTS.retryToleranceSeconds,
    ...(secondApiKey ? { secondApiKey } : {}),
    maxFailures: options.failFast ? 1 : (options.maxFailures ?? null),
    // Fail-fast stops at a definite check: with --max-failures (or -x) the checks run one after another unless --workers says otherwise.
    workers:
      positiveIntegerOption(options.workers, '--workers') ?? (options.failFast || options.maxFailures !== undefined ? 1 : DEFAULTS.workers),
    headers: options.headers ?? {},
    tty: options.tty ?? (options.write === undefined && process.stdout.isTTY === true),
    reportDirExplicit: options.reportDir !== undefined,
  };
}
