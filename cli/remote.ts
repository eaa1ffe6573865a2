// What `listen`, `trigger` and `reset` share: they talk to a running simulator at --base-url
// (STABLEPAY_BASE_URL, default http://127.0.0.1:4000) as the merchant of --api-key
// (STABLEPAY_API_KEY), carry --control-token (STABLEPAY_CONTROL_TOKEN) on every control API request, and report
// failures in one line with the exit codes of exit-codes.ts.
import { Option, type Command } from 'commander';
import { DEFAULTS, ENV } from '@stablepay/simulator/defaults';
import { EXIT_FAILURE, EXIT_USAGE, USAGE_HINT, UsageError } from './exit-codes.ts';

export const BASE_URL_ENV = 'STABLEPAY_BASE_URL';
export const DEFAULT_BASE_URL = `http://${DEFAULTS.host}:${DEFAULTS.port}`;

export interface RemoteFlags {
  baseUrl: string;
  apiKey?: string;
  controlToken?: string;
}

/** The header the simulator's control API checks when started with --control-token. */
const CONTROL_TOKEN_HEADER = 'x-control-token';

export function addRemoteOptions(command: Command, apiKeyHelp = 'the merchant API key (pk_...)'): Command {
  return command
    .addOption(new Option('--base-url <url>', 'the simulator to talk to').env(BASE_URL_ENV).default(DEFAULT_BASE_URL))
    .addOption(new Option('--api-key <key>', apiKeyHelp).env(ENV.apiKey))
    .addOption(
      new Option('--control-token <token>', 'the control token the simulator was started with (start --control-token)').env(
        ENV.controlToken,
      ),
    );
}

/**
 * A base URL as the service root: http(s) with a host, no query, no trailing /v1 (every path carries it). The
 * mistakes are named with the fix, before anything is sent: a bare host:port is not read as a URL with the scheme
 * "localhost:".
 */
export function parseBaseUrl(value: string, flag = '--base-url'): string {
  const url = parseHttpUrl(value, flag);
  if (url.search || url.hash) throw new UsageError(`${flag} must not carry a query or fragment (got "${value}")`);
  const root = url.href.replace(/\/+$/, '');
  if (/\/v1$/i.test(root))
    throw new UsageError(`${flag} is the service root without /v1 (every path carries it): use ${root.replace(/\/v1$/i, '')}`);
  return root;
}

/** An absolute http(s) URL with a host, or a one-line usage error naming the fix. */
export function parseHttpUrl(value: string, flag: string): URL {
  if (!/^https?:\/\//i.test(value)) {
    const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? '' : `, e.g. http://${value}`;
    throw new UsageError(`${flag} must start with http:// or https://${hint} (got "${value}")`);
  }
  try {
    const url = new URL(value);
    if (url.hostname) return url;
  } catch {
    // said below
  }
  throw new UsageError(`${flag} is not a valid URL: "${value}"`);
}

/** A refusal of the simulator (or of the state a payment is in): one line, exit 2. */
export class Refused extends Error {}

export class Remote {
  readonly baseUrl: string;

  constructor(flags: RemoteFlags) {
    this.baseUrl = parseBaseUrl(flags.baseUrl);
    this.apiKey = flags.apiKey;
    this.controlToken = flags.controlToken || undefined;
  }

  private readonly apiKey: string | undefined;
  private readonly controlToken: string | undefined;

  requireKey(): string {
    if (!this.apiKey) throw new UsageError(`an API key is needed: --api-key pk_... or ${ENV.apiKey}`);
    return this.apiKey;
  }

  /** JSON in, JSON out. `auth` sends the API key; network failures name the base URL. */
  // biome-ignore lint/suspicious/noExplicitAny: a control-API answer of any shape; callers read the fields they asked for
  async call(method: string, path: string, options: { body?: unknown; auth?: boolean } = {}): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {};
    if (options.auth) headers.authorization = `Bearer ${this.requireKey()}`;
    if (this.controlToken && path.startsWith('/control/')) headers[CONTROL_TOKEN_HEADER] = this.controlToken;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(
        `cannot reach ${this.baseUrl} (${cause?.code ?? cause?.message ?? (error as Error).message}); is \`stablepay start\` running?`,
      );
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, body };
  }

  /** Throws a one-line error unless the status is one of `ok`. */
  // biome-ignore lint/suspicious/noExplicitAny: as call()
  async expect(method: string, path: string, ok: number[], options: { body?: unknown; auth?: boolean } = {}): Promise<any> {
    const res = await this.call(method, path, options);
    if (ok.includes(res.status)) return res.body;
    const message = typeof res.body === 'object' && res.body ? (res.body as { message?: string }).message : String(res.body ?? '');
    const detail = (res.body as { errors?: { path: string[]; message: string }[] } | undefined)?.errors
      ?.map((e) => `${e.path.join('.') || 'body'}: ${e.message}`)
      .join('; ');
    if (res.status === 401 && /control-token/i.test(message ?? ''))
      throw new UsageError(
        `${method} ${path}: the control API wants its token (${message}): --control-token <token> or ${ENV.controlToken}`,
      );
    if (res.status === 401) throw new UsageError(`${method} ${path}: the API key was refused (401${message ? `: ${message}` : ''})`);
    if (res.status === 404 && path.startsWith('/control/'))
      throw new UsageError(`${method} ${path}: 404 — is the control API on (not --no-control)?`);
    throw new Refused(`${method} ${path} answered ${res.status}${message ? `: ${message}` : ''}${detail ? ` (${detail})` : ''}`);
  }
}

/** Runs a subcommand action: one line on stderr and exit 2 for usage errors and refusals, 1 otherwise. */
export function remoteAction<A extends unknown[]>(name: string, action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      console.error(`stablepay ${name}: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof UsageError) console.error(USAGE_HINT);
      process.exitCode = error instanceof UsageError || error instanceof Refused ? EXIT_USAGE : EXIT_FAILURE;
    }
  };
}
