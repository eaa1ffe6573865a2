// One HTTP exchange of a delivery attempt, with undici's fetch. The 10-second limit is real
// time (a receiver is slow in wall seconds, whatever the virtual clock says) and covers the
// whole exchange: status line, headers and the body we drain.
import type { Dispatcher, fetch as undiciFetch } from 'undici';

export type FetchLike = typeof undiciFetch;

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborted when the service closes: the attempt is abandoned, not recorded. */
  closeSignal: AbortSignal;
  dispatcher?: Dispatcher;
}

export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** True when the service closed mid-flight; the caller records nothing. */
  abandoned: boolean;
}

/** Response bodies are read and discarded; past this many bytes we stop reading and drop the socket. */
const MAX_DRAIN_BYTES = 64 * 1024;

export async function postWebhook(fetchImpl: FetchLike, request: PostRequest): Promise<PostOutcome> {
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const abandon = () => controller.abort();
  request.closeSignal.addEventListener('abort', abandon, { once: true });
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const response = await fetchImpl(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      // A 3xx is an answer, and not a 2xx: following it would deliver to a URL the merchant never configured.
      redirect: 'manual',
      signal: controller.signal,
      ...(request.dispatcher ? { dispatcher: request.dispatcher } : {}),
    });
    statusCode = response.status;
    await drain(response.body);
    if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
  } catch (err) {
    error = timedOut ? `timeout after ${request.timeoutMs} ms` : describeFailure(err);
  } finally {
    clearTimeout(timer);
    request.closeSignal.removeEventListener('abort', abandon);
  }
  return {
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
    abandoned: request.closeSignal.aborted,
  };
}

async function drain(body: AsyncIterable<Uint8Array> | null): Promise<void> {
  if (!body) return;
  let bytes = 0;
  // Leaving the loop early cancels the stream, which releases the socket.
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > MAX_DRAIN_BYTES) break;
  }
}

/** undici reports "fetch failed" and hides the useful part (ECONNREFUSED, reset, DNS) in `cause`. */
export function describeFailure(err: unknown): string {
  const cause = err instanceof Error && err.cause !== undefined ? err.cause : err;
  return messageOf(cause) || messageOf(err) || 'request failed';
}

function messageOf(value: unknown): string {
  if (value instanceof AggregateError && value.errors.length > 0) {
    return [...new Set(value.errors.map(messageOf))].join('; ');
  }
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return value.message || (typeof code === 'string' ? code : value.name);
  }
  return value === undefined || value === null ? '' : String(value);
}
