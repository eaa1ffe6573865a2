// The caller's IP address: the socket's peer address when served by @hono/node-server, the
// first X-Forwarded-For hop when the simulator is told to trust a proxy, and loopback for
// in-process `app.request()` calls (which can pass `{ incoming: { socket: { remoteAddress } } }`).
import type { Context } from 'hono';
import { normalizeIp } from '../../core/api-keys/ip-whitelist.ts';

export function clientIp(c: Context, trustProxy = false): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return normalizeIp(forwarded);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return normalizeIp(env?.incoming?.socket?.remoteAddress ?? '127.0.0.1');
}
