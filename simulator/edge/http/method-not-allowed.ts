// A known path asked with a method it does not serve is a 405 with Allow (RFC 9110 §15.5.6), not
// a 404: the client got the method wrong, not the path. Unknown paths stay 404.
import type { NotFoundHandler } from 'hono';
import { ApiError } from './errors.ts';
import { MESSAGES } from './messages.ts';

interface RouteLike {
  method: string;
  path: string;
}

interface CompiledRoute {
  method: string;
  pattern: RegExp;
}

/** `/v1/payments/:id` -> /^\/v1\/payments\/[^/]+\/?$/ ; middleware (`ALL`, `*`) is left out. */
function compile(routes: readonly RouteLike[]): CompiledRoute[] {
  return routes
    .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
    .map((r) => {
      const source = r.path
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return { method: r.method, pattern: new RegExp(`^${source.replace(/\/$/, '')}/?$`) };
    });
}

/** The methods served at `path`, HEAD with GET, in a stable order. */
export function allowedMethods(routes: readonly CompiledRoute[], path: string): string[] {
  const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** The app's not-found handler: 405 + Allow when another method serves the path, else `fallback`. */
export function methodAwareNotFound(routes: () => readonly RouteLike[], fallback: NotFoundHandler): NotFoundHandler {
  let compiled: CompiledRoute[] | undefined;
  return (c) => {
    // Routes are complete by the first request; compiling then sees every mounted sub-app.
    compiled ??= compile(routes());
    const allow = allowedMethods(compiled, c.req.path);
    if (allow.length === 0 || allow.includes(c.req.method)) return fallback(c);
    return new ApiError(405, MESSAGES.methodNotAllowed(c.req.method, c.req.path), { headers: { Allow: allow.join(', ') } }).getResponse();
  };
}
