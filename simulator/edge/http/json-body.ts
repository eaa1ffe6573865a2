// The one body pipeline of every JSON route: Content-Type application/json, at most 1 MB, read
// chunk by chunk so an oversized body is refused once the cap is passed (413), whether it
// declared its length or came chunked, and never held in memory whole; then JSON.parse, whose
// failure is a 400 at path [].
import type { Context } from 'hono';
import { ApiError, validationError } from './errors.ts';
import { MESSAGES } from './messages.ts';

export const DEFAULT_MAX_BODY_BYTES = 1_000_000;

export const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

export interface ReadJsonOptions {
  maxBytes?: number;
  /** Treat a missing/empty body as `{}` (control actions whose body is optional). */
  optional?: boolean;
}

const tooLarge = (maxBytes: number): ApiError => new ApiError(413, MESSAGES.bodyTooLarge(maxBytes));

/**
 * A client that goes away mid-body (node's "aborted", ECONNRESET) is the client's doing, not a fault of ours: a 400
 * nobody will read, logged as one request line, never as an unhandled error with a stack.
 */
async function whileTheClientStays<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ECONNRESET' || code === 'ABORT_ERR' || (error as Error | null)?.message === 'aborted')
      throw new ApiError(400, MESSAGES.bodyCutShort);
    throw error;
  }
}

/** The raw body as UTF-8 text, refused with a 413 as soon as it passes `maxBytes`. */
export function readBodyText(c: Context, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<string> {
  return whileTheClientStays(() => readCapped(c, maxBytes));
}

async function readCapped(c: Context, maxBytes: number): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  // A declared length within the cap: the HTTP parser delivers exactly that many bytes, so the body is read whole
  // through the adapter's direct path (no web Request, AbortSignal and ReadableStream built around the socket,
  // which was about a fifth of a create's CPU). Chunked bodies keep the streamed, capped read below.
  if (declared !== undefined && /^\d+$/.test(declared)) {
    return Buffer.from(await c.req.raw.arrayBuffer()).toString('utf8');
  }
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop reading, without cancelling: cancelling destroys the socket before the 413 is written. The
      // node adapter drains a bounded amount of the rest after answering, then closes the connection.
      reader.releaseLock();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Parse the request body as JSON; 413 over the cap, 400 at path [] when it is not JSON or not sent as JSON. */
export async function readJsonBody(c: Context, options: ReadJsonOptions = {}): Promise<unknown> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const text = await readBodyText(c, maxBytes);
  return parseJsonBody(text, c.req.header('content-type'), options);
}

/** A body already read, judged as readJsonBody judges it (the direct path reads the body itself). */
export function parseJsonBody(text: string, contentType: string | undefined, options: Pick<ReadJsonOptions, 'optional'> = {}): unknown {
  // An optional body may be left out entirely, Content-Type included.
  if (options.optional && text.trim() === '') return {};
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) throw validationError([{ path: [], message: MESSAGES.contentType }]);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError([{ path: [], message: MESSAGES.notJson }]);
  }
}
