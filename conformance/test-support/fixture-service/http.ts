// The HTTP edge of the fixture service: the error bodies (400/409 as spec §7 shows them; 401/404/429 by choice), the
// key check and the fixed-window rate limit with its headers on every /v1 response, errors included.
import type { Context, MiddlewareHandler } from 'hono';
import type { FieldError } from './payments.ts';
import type { FixtureState, KeyRecord } from './state.ts';

const PHRASE: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
};

export type Env = { Variables: { key: KeyRecord; state: FixtureState } };

/** An error answer. 400 and 409 have the documented body; 401, 404 and 429 follow the fixture's choice. */
export function problem(c: Context<Env>, status: number, message: string, errors?: FieldError[]): Response {
  const state = c.get('state');
  const other = status === 401 || status === 404 || status === 429;
  if (other && state.choices.otherErrorBody === 'problem-json') {
    return c.json({ type: 'about:blank', title: PHRASE[status] ?? 'Error', status, detail: message }, status as 401);
  }
  return c.json({ statusCode: status, message, error: PHRASE[status] ?? 'Error', ...(errors ? { errors } : {}) }, status as 400);
}

export function validation(c: Context<Env>, errors: FieldError[]): Response {
  return problem(c, 400, 'Validation failed', errors);
}

/** Whether `ip` is one of the whitelist's addresses or CIDR blocks (IPv4 blocks; IPv6 as ::/0 or exact). */
export function ipAllowed(whitelist: string[], ip: string): boolean {
  const v4 = ip.replace(/^::ffff:/, '');
  const toInt = (a: string) => a.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
  return whitelist.some((entry) => {
    if (entry === '::/0' || entry === ip || entry === v4) return true;
    const [base, bits] = entry.split('/');
    if (!bits || !/^\d+\.\d+\.\d+\.\d+$/.test(base!) || !/^\d+\.\d+\.\d+\.\d+$/.test(v4)) return false;
    const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
    return (toInt(base!) & mask) === (toInt(v4) & mask);
  });
}

/** Bearer pk_ keys; revoked, expired and off-whitelist keys are refused with 401. */
export function requireKey(): MiddlewareHandler<Env> {
  return async (c, next) => {
    const state = c.get('state');
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer (pk_\S+)$/.exec(header);
    const record = match ? state.keyFor(match[1]!) : undefined;
    if (!record) return problem(c, 401, 'Missing or invalid API key');
    const now = state.now();
    if (record.revokedAt !== null && !state.has('revoked-key-accepted')) return problem(c, 401, 'API key revoked');
    if (record.expiresAt !== null && record.expiresAt <= now && !state.has('expired-key-accepted'))
      return problem(c, 401, 'API key expired');
    const ip =
      (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? '127.0.0.1';
    if (record.ipWhitelist && !state.has('whitelist-ignored') && !ipAllowed(record.ipWhitelist, ip))
      return problem(c, 401, 'Caller address not in the key whitelist');
    c.set('key', record);
    await next();
  };
}

/** A fixed window per key (per client address without one); the three headers on every response. */
export function rateLimit(): MiddlewareHandler<Env> {
  return async (c, next) => {
    const state = c.get('state');
    const id = c.req.header('authorization') ?? 'anonymous';
    const now = state.now();
    const windowMs = state.rateWindowSeconds * 1000;
    let window = state.windows.get(id);
    if (!window || now >= window.start + windowMs) {
      window = { start: now - (now % windowMs), count: 0 };
      state.windows.set(id, window);
    }
    window.count += 1;
    const reset = Math.ceil((window.start + windowMs) / 1000);
    const headers = {
      'X-RateLimit-Limit': String(state.rateLimit),
      'X-RateLimit-Remaining': String(Math.max(0, state.rateLimit - window.count)),
      'X-RateLimit-Reset': String(reset),
    };
    if (window.count > state.rateLimit) {
      const refused = problem(c, 429, 'Rate limit exceeded');
      for (const [name, value] of Object.entries(headers)) refused.headers.set(name, value);
      refused.headers.set('Retry-After', String(Math.max(1, reset - Math.floor(now / 1000))));
      return refused;
    }
    await next();
    if (state.has('rate-headers-missing-on-errors') && c.res.status >= 400) return;
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/** The JSON body of a request, or `undefined` when it is not JSON. */
export async function jsonBody(c: Context<Env>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
