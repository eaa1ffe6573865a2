// Rate limiting for every /v1 request: per API key when the caller authenticated, per client IP
// otherwise. The X-RateLimit-* headers go on every response, errors and 404s included.
import type { MiddlewareHandler } from 'hono';
import type { Stage } from '../http/pipeline.ts';
import type { Identity, IdentityEnv } from './identify.ts';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { ApiError } from '../http/errors.ts';
import { MESSAGES } from '../http/messages.ts';
import type { FixedWindowLimiter, RateLimitDecision } from '../../core/rate-limit/fixed-window.ts';

export interface RateLimitOptions {
  limiter: FixedWindowLimiter;
  clock: VirtualClock;
}

/** Who a request counts against: its API key when it authenticated, its client IP otherwise. */
export function rateLimitKey(identity: Identity | undefined): string {
  return identity?.ok ? `key:${identity.record.id}` : `ip:${identity?.ip ?? 'unknown'}`;
}

/** The X-RateLimit-* headers of a decision. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

/** Counts the request; its X-RateLimit-* headers, and throws the 429 when the window is used up. */
function countRequest({ limiter, clock }: RateLimitOptions, identity: Identity | undefined): Record<string, string> {
  return judged(limiter.hit(rateLimitKey(identity), nowFor(clock, identity)));
}

// A key's window runs on its merchant's clock (a moved clock starts a fresh window), an IP's on the sandbox clock.
const nowFor = (clock: VirtualClock, identity: Identity | undefined): number =>
  (identity?.ok ? clock.for(identity.record.merchantId) : clock).now();

/** The decision's headers, or the 429 when the window is used up. */
function judged(decision: RateLimitDecision): Record<string, string> {
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError(429, MESSAGES.rateLimited(decision.retryAfter), {
      headers: { ...headers, 'Retry-After': String(decision.retryAfter) },
    });
  }
  return headers;
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<IdentityEnv> {
  // Not async (see identify.ts): one promise per request instead of two.
  return (c, next) => {
    // Several processes on one database count in it (one round trip); else this process counts alone, synchronously.
    if (options.limiter.shared) {
      const identity = c.get('identity');
      return options.limiter
        .hitShared(rateLimitKey(identity), nowFor(options.clock, identity))
        .then((decision) => withHeaders(c, next, judged(decision)));
    }
    return withHeaders(c, next, countRequest(options, c.get('identity')));
  };
}

function withHeaders(
  c: Parameters<MiddlewareHandler<IdentityEnv>>[0],
  next: () => Promise<void>,
  headers: Record<string, string>,
): Promise<void> {
  // Set before the handler runs, so c.json() builds its response with them. Setting them on a finished
  // response instead makes Hono rebuild it as a full web Response around a stream (a third of the create path).
  for (const name in headers) c.header(name, headers[name]);
  return next().then(() => {
    // Responses built without the context (ApiError.getResponse(), a raw Response) do not carry them yet.
    if (!c.res.headers.has('X-RateLimit-Limit')) for (const name in headers) c.header(name, headers[name]);
  });
}

/** The rate-limit stage of the /v1 pipeline; on the direct path its headers go on every answer, errors included. */
export function rateLimitStage(options: RateLimitOptions): Stage<IdentityEnv> {
  return {
    name: 'rate-limit',
    middleware: rateLimit(options),
    direct: {
      before(request) {
        Object.assign(request.answerHeaders, countRequest(options, request.vars.identity as Identity | undefined));
      },
    },
  };
}
