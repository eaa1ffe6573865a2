// Strict JSON request bodies: application/json only, size-capped, parsed without throwing a 5xx.
// Every problem is a 400 at path [] (the contract lists 400 for bodies, not 413/415).
import type { Context } from 'hono';
import { validationError } from './errors.ts';
import { MESSAGES } from './messages.ts';

export const DEFAULT_MAX_BODY_BYTES = 1_000_000;

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

export interface ReadJsonOptions {
  maxBytes?: number;
  /** Treat a missing/empty body as `{}` (control actions whose body is optional). */
  optional?: boolean;
}

/** Parse the request body as JSON; a 400 with path [] when it is not JSON or not sent as JSON. */
export async function readJsonBody(c: Context, options: ReadJsonOptions = {}): Promise<unknown> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBytes) throw validationError([{ path: [], message: MESSAGES.bodyTooLarge(maxBytes) }]);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > maxBytes) throw validationError([{ path: [], message: MESSAGES.bodyTooLarge(maxBytes) }]);
  if (options.optional && text.trim() === '') return {};
  const contentType = c.req.header('content-type');
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) throw validationError([{ path: [], message: MESSAGES.contentType }]);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError([{ path: [], message: MESSAGES.notJson }]);
  }
}
