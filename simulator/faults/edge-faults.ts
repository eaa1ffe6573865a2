// Faults of the /v1 edge: wrappers of the key lookup, the key-expiry clock, the authentication
// middleware and the rate-limit middleware.
import type { MiddlewareHandler } from 'hono';
import type { ApiKeyStore } from '../core/api-keys/api-key-store.ts';
import type { IdentityEnv } from '../edge/v1/identify.ts';
import type { MerchantTime } from '../core/clock/virtual-clock.ts';
import { ApiError } from '../edge/http/errors.ts';
import { MESSAGES } from '../edge/http/messages.ts';

type KeyLookup = Pick<ApiKeyStore, 'findByKey'>;
type Middleware = MiddlewareHandler<IdentityEnv>;

/** `revoked-key-accepted`: the lookup ignores revokedAt. */
export const revokedKeysAccepted = (base: KeyLookup): KeyLookup => ({
  findByKey(key) {
    const record = base.findByKey(key);
    return record && record.revokedAt !== null ? { ...record, revokedAt: null } : record;
  },
});

/** `key-expiry-wall-clock`: expiry is judged by the wall clock, not the service clock. */
export const wallClock = (_base: MerchantTime): MerchantTime => ({ for: () => ({ now: () => Date.now() }) });

/** `unknown-key-403`: a well-formed key that was never issued is refused as Forbidden. */
export const unknownKeyForbidden =
  (base: Middleware): Middleware =>
  async (c, next) => {
    const identity = c.get('identity');
    if (identity && !identity.ok && identity.message === MESSAGES.authUnknown) throw new ApiError(403, 'Forbidden');
    return base(c, next);
  };

/** `retry-after-missing`: the 429 keeps its X-RateLimit-* headers but loses Retry-After. */
export const withoutRetryAfter =
  (base: Middleware): Middleware =>
  async (c, next) => {
    try {
      await base(c, next);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429) throw error;
      const { 'Retry-After': _dropped, ...headers } = error.headers;
      throw new ApiError(429, error.message, { headers });
    }
  };

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** `rate-limit-headers-only-on-success`: responses of 400 and above lose the X-RateLimit-* headers. */
export const rateLimitHeadersOnlyOnSuccess =
  (base: Middleware): Middleware =>
  async (c, next) => {
    await base(c, next);
    if (c.res.status >= 400) for (const name of RATE_LIMIT_HEADERS) c.header(name, undefined);
  };
