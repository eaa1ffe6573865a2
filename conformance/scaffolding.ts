// What a run relies on before any check: the service answers the preflight, the control API (when there is one) is
// really a control API, and the implementation's clock can be read. Each answer is validated before it is used; one
// that is not what the suite needs ends the run with one sentence naming the endpoint and what was wrong (exit 2), or,
// for a control API the user did not name, is noted and the run goes on without it. Never a TypeError.
import type { ServerClock } from './context.ts';
import { ControlClient, ControlError } from './control/control-client.ts';
import { HttpClient, TransportError, type HttpClientOptions, type HttpResponse } from './http/client.ts';
import { ConfigError } from './options.ts';

/** How a body looks in a sentence: its content type and its first characters, or that it was empty. */
export function bodyGlimpse(response: Pick<HttpResponse, 'text' | 'headers'>): string {
  if (response.text.length === 0) return 'an empty body';
  const type = response.headers['content-type'] ?? 'no content type';
  const start = response.text.slice(0, 80).replace(/\s+/g, ' ');
  return `${type}: ${JSON.stringify(start)}${response.text.length > 80 ? '…' : ''}`;
}

/** A request the run was stopping anyway is not a finding about the implementation: it goes up as it is. */
function rethrowAborted(error: unknown): void {
  if (error instanceof TransportError && error.kind === 'aborted') throw error;
}

/** GET /v1/payments?limit=1 with the given key: the implementation answers, is healthy and accepts the key. */
export async function preflight(api: HttpClient, notes: string[]): Promise<void> {
  let response: HttpResponse;
  try {
    response = await api.get('/v1/payments', { limit: 1 });
  } catch (error) {
    rethrowAborted(error);
    if (error instanceof TransportError) {
      throw new ConfigError(
        error.kind === 'refused'
          ? `base URL unreachable: ${error.message}`
          : `the implementation did not answer the first request: ${error.message}`,
      );
    }
    throw error;
  }
  const { status } = response;
  if (status === 401) throw new ConfigError('the implementation refused the API key (401 on GET /v1/payments)');
  if (status >= 500) throw new ConfigError(`the implementation is not healthy: GET /v1/payments answered ${status}`);
  if (status >= 300 && status < 400) {
    const location = response.headers.location;
    notes.push(
      `GET /v1/payments answered ${status}${location ? ` (Location: ${location})` : ''}: the suite never follows redirects, so each redirected request is judged as it was answered; if the service lives at that address, give it as --base-url`,
    );
  }
}

/** The control API's health answer, as control-api.yaml shows it: a JSON object whose status is "ok". */
function isHealth(response: HttpResponse): boolean {
  const body = response.json as { status?: unknown } | null | undefined;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && body.status === 'ok';
}

export async function probeControl(
  url: string | null,
  explicit: boolean,
  shared: Pick<HttpClientOptions, 'recorder' | 'secrets' | 'dispatcher' | 'timeoutMs' | 'maxResponseBytes' | 'headers' | 'guard'>,
  notes: string[],
): Promise<ControlClient | null> {
  if (!url) {
    notes.push('control API disabled (--no-control)');
    return null;
  }
  const control = new ControlClient(new HttpClient({ ...shared, baseUrl: url, target: 'control', credential: null }));
  let reason: string;
  try {
    const health = await control.health();
    if (health.status === 200 && isHealth(health)) return control;
    reason =
      health.status === 200
        ? `GET ${url}/health answered 200 but not with the control API's health JSON ({"status": "ok", ...}): ${bodyGlimpse(health)}`
        : `GET ${url}/health answered ${health.status}`;
  } catch (error) {
    rethrowAborted(error);
    reason = error instanceof TransportError ? error.message : String(error);
  }
  if (explicit) throw new ConfigError(`control API unusable: ${reason}`);
  notes.push(`no control API at ${url} (${reason}): checks that need it are not exercised`);
  return null;
}

/**
 * A control-API step the run cannot start without (read the clock, create the run's merchant): a control API that
 * answered its health but fails here is broken scaffolding, one sentence and exit 2.
 */
export async function controlSetupStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    rethrowAborted(error);
    if (error instanceof ControlError || error instanceof TransportError)
      throw new ConfigError(`control API unusable (${what}): ${error.message}`);
    throw error;
  }
}

/** `blackBoxNow`: the target's time as a black-box run moves it (libfaketime), when there is no control API to ask. */
export function serverClock(control: ControlClient | null, blackBoxNow?: () => number): ServerClock {
  let skewMs = 0;
  const skew = () => (control || !blackBoxNow ? skewMs : blackBoxNow() - Date.now());
  const at = (wallMs: number) => wallMs + skew();
  return {
    now: () => Date.now() + skew(),
    at,
    // A process clock moved from outside (libfaketime) moves the implementation's wall clock too, so it signs with
    // the moved time: a receiver sharing that clock checks t= against it. A control API's virtual clock does not
    // move the signer's wall clock, so then the receiver's own wall clock is the reference (no signatureNow).
    ...(!control && blackBoxNow ? { signatureNow: at } : {}),
    async refresh() {
      if (control) {
        const before = Date.now();
        const state = await control.clock();
        skewMs = Date.parse(state.now) - Math.round((before + Date.now()) / 2);
      }
      return Date.now() + skew();
    },
  };
}
