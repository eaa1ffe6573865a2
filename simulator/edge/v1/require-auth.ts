// Turns the resolved identity into the merchant context, or a 401.
import type { MiddlewareHandler } from 'hono';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { unauthorized } from '../http/errors.ts';
import type { ApiKeyStore } from '../../core/api-keys/api-key-store.ts';
import type { Stage } from '../http/pipeline.ts';
import type { Identity, IdentityEnv } from './identify.ts';

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
    const caller = authenticate(options, identity);
    c.set('merchantId', caller.merchantId);
    c.set('apiKeyId', caller.apiKeyId);
    return next();
  };
}

/** The merchant behind a resolved identity (its key touched), or the 401 it is refused with. */
function authenticate(options: RequireAuthOptions, identity: Identity | undefined): { merchantId: string; apiKeyId: string } {
  if (!identity?.ok) throw unauthorized(identity?.message);
  options.keys.touch(identity.record, options.clock.for(identity.record.merchantId).now());
  return { merchantId: identity.record.merchantId, apiKeyId: identity.record.id };
}

/** The authentication stage of the /v1 pipeline (API keys only; checkout tokens are the web3 route's own). */
export function requireAuthStage(options: RequireAuthOptions): Stage<IdentityEnv> {
  return {
    name: 'require-auth',
    middleware: requireAuth(options),
    direct: options.checkoutTokens
      ? undefined
      : {
          before(request) {
            Object.assign(request.vars, authenticate(options, request.vars.identity as Identity | undefined));
          },
        },
  };
}
