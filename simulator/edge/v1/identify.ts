// Who is calling: resolves the Bearer credential without failing the request, so the rate limiter
// can count unauthenticated callers per IP and still put its headers on the 401.
import type { MiddlewareHandler } from 'hono';
import type { Stage } from '../http/pipeline.ts';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { clientIp } from '../http/client-ip.ts';
import type { AuthVariables } from '../http/context.ts';
import { MESSAGES } from '../http/messages.ts';
import type { ApiKeyRecord } from '../../core/api-keys/api-key.ts';
import { KEY_PREFIX, keyStatus } from '../../core/api-keys/api-key.ts';
import type { ApiKeyStore } from '../../core/api-keys/api-key-store.ts';
import { ipAllowed } from '../../core/api-keys/ip-whitelist.ts';

export type Identity =
  | { ok: true; record: ApiKeyRecord; ip: string }
  | { ok: false; message: string; ip: string /** the raw bearer token, for checkout-token routes */; token?: string };

export type IdentityEnv = { Variables: AuthVariables & { identity: Identity } };

export interface IdentifyOptions {
  /** The key lookup (the composition root may wrap it). */
  keys: Pick<ApiKeyStore, 'findByKey'>;
  /** The clock a key's expiry is judged by: the service clock. */
  clock: Pick<VirtualClock, 'now'>;
  trustProxy?: boolean;
}

export function resolveIdentity(authorization: string | undefined, ip: string, options: IdentifyOptions): Identity {
  if (authorization === undefined || authorization.trim() === '') return { ok: false, message: MESSAGES.authMissing, ip };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) return { ok: false, message: MESSAGES.authNotBearer, ip };
  const token = match[1] as string;
  if (!token.startsWith(KEY_PREFIX)) return { ok: false, message: MESSAGES.authMalformed, ip, token };
  const record = options.keys.findByKey(token);
  if (!record) return { ok: false, message: MESSAGES.authUnknown, ip };
  const status = keyStatus(record, options.clock.now());
  if (status === 'revoked') return { ok: false, message: MESSAGES.authRevoked, ip };
  if (status === 'expired') return { ok: false, message: MESSAGES.authExpired, ip };
  if (!ipAllowed(record.allowList, ip)) return { ok: false, message: MESSAGES.authIpDenied, ip };
  return { ok: true, record, ip };
}

/** Sets `identity` on the context; never rejects. */
export function identify(options: IdentifyOptions): MiddlewareHandler<IdentityEnv> {
  // Not async: returning next()'s promise spares every request an extra promise and microtask turn.
  return (c, next) => {
    c.set('identity', resolveIdentity(c.req.header('authorization'), clientIp(c, options.trustProxy), options));
    return next();
  };
}

/** The identify stage of the /v1 pipeline. Behind a trusted proxy the client IP is X-Forwarded-For's, which only the chain reads. */
export function identifyStage(options: IdentifyOptions): Stage<IdentityEnv> {
  return {
    name: 'identify',
    middleware: identify(options),
    direct: options.trustProxy
      ? undefined
      : {
          before(request) {
            request.vars.identity = resolveIdentity(request.header('authorization'), request.remoteAddress, options);
          },
        },
  };
}
