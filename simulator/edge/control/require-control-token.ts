// The control API moves the clock, creates merchants and keys and pays payments: whoever reaches it
// owns the simulator. With a token configured, every control request must carry it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../http/errors.ts';

export const CONTROL_TOKEN_HEADER = 'X-Control-Token';
export const MIN_CONTROL_TOKEN_LENGTH = 16;

/** Throws (RangeError) on a token too short to be worth having. */
export function checkControlToken(token: string): void {
  if (token.length < MIN_CONTROL_TOKEN_LENGTH || /[\s\u0000-\u001f]/.test(token)) {
    throw new RangeError(`the control token must be at least ${MIN_CONTROL_TOKEN_LENGTH} characters, without spaces or control characters`);
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function requireControlToken(token: string): MiddlewareHandler {
  checkControlToken(token);
  const expected = digest(token);
  return async (c, next) => {
    const given = c.req.header(CONTROL_TOKEN_HEADER);
    // Comparing digests keeps the comparison constant-time whatever the length given.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      throw new ApiError(
        401,
        given === undefined
          ? `Missing ${CONTROL_TOKEN_HEADER} header (the control API requires a token)`
          : `Invalid ${CONTROL_TOKEN_HEADER}`,
      );
    }
    await next();
  };
}
