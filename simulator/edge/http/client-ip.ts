// The caller's IP address: the socket's peer address when served by @hono/node-server, the
// first X-Forwarded-For hop when the simulator is told to trust a proxy, and loopback for
// in-process `app.request()` calls (which can pass `{ incoming: { socket: { remoteAddress } } }`).
import type { Context } from 'hono';

export function clientIp(c: Context, trustProxy = false): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return normalizeIp(forwarded);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return normalizeIp(env?.incoming?.socket?.remoteAddress ?? '127.0.0.1');
}

/** "::ffff:10.0.0.1" (IPv4-mapped, as dual-stack sockets report it) -> "10.0.0.1". */
export function normalizeIp(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? (mapped[1] as string) : address;
}
