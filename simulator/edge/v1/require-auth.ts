// Turns the resolved identity into the merchant context, or a 401.
import type { MiddlewareHandler } from 'hono';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { unauthorized } from '../http/errors.ts';
import type { ApiKeyStore } from '../../core/api-keys/api-key-store.ts';
import type { IdentityEnv } from './identify.ts';

export interface RequireAuthOptions {
  keys: ApiKeyStore;
  clock: VirtualClock;
  /** Also accept a checkout token (ct_...) the hosted page issued, where a route allows it. */
  checkoutTokens?: ((token: string) => { merchantId: string } | undefined) | undefined;
}

export function requireAuth(options: RequireAuthOptions): MiddlewareHandler<IdentityEnv> {
  // Not async (see identify.ts); a throw still reaches Hono's error handler, which calls middleware inside a try.
  return (c, next) => {
    const identity = c.get('identity');
    if (identity && !identity.ok && identity.token?.startsWith('ct_') && options.checkoutTokens) {
      const grant = options.checkoutTokens(identity.token);
      if (grant) {
        c.set('merchantId', grant.merchantId);
        c.set('apiKeyId', 'checkout-token');
        c.set('checkoutToken', identity.token);
        return next();
      }
    }
    if (!identity?.ok) throw unauthorized(identity?.message);
    options.keys.touch(identity.record, options.clock.now());
    c.set('merchantId', identity.record.merchantId);
    c.set('apiKeyId', identity.record.id);
    return next();
  };
}
