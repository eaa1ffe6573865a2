// Paths are checked in the form the client sent them, before routing. The URL parser that builds
// the Request treats `%2e%2e` as `..` and resolves it, so `/v1/%2e%2e/control/v1/clock` would
// otherwise reach the control API without auth; a gateway that forwards only `/v1/*` cannot stop
// that. A path that is not in canonical form reaches no route at all: it is refused as a 404.
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './errors.ts';
import type { Stage } from './pipeline.ts';
import { MESSAGES } from './messages.ts';

/** The request target as received on the socket (served by @hono/node-server), else the URL's path. */
function rawTarget(c: Context): string {
  const env = c.env as { incoming?: { url?: string } } | undefined;
  const raw = env?.incoming?.url;
  if (raw !== undefined) return raw;
  const url = c.req.url;
  const afterAuthority = url.indexOf('/', url.indexOf('//') + 2);
  return afterAuthority === -1 ? '/' : url.slice(afterAuthority);
}

/** The path part of a request target; absolute-form targets (`http://host/path`) lose their authority. */
function pathOf(target: string): string {
  const query = target.search(/[?#]/);
  let path = query === -1 ? target : target.slice(0, query);
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  return path;
}

/**
 * True when `path` routes only as its literal self: it starts with `/`, has no empty, `.` or `..`
 * segment (encoded or not), no backslash, and no percent-encoded `/`, `\`, `%`, `.` or control
 * character (ids, the only variable path parts, never contain them).
 */
export function isCanonicalPath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\\') || path.includes('//')) return false;
  const segments = path.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    // A trailing slash leaves one empty last segment, which routes like its literal self.
    if (segment === '' && index !== segments.length - 1) return false;
    if (!segment.includes('%')) {
      if (segment === '.' || segment === '..') return false;
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (/[/\\%.\u0000-\u001f\u007f]/.test(decoded)) return false;
  }
  return true;
}

export interface CanonicalPathOptions {
  /**
   * Answers a refused path under `/v1`, so the refusal gets the same treatment (identify, rate-limit
   * headers, 401 without a valid key) as any other unknown `/v1` route.
   */
  refuseUnderV1: (c: Context) => Response | Promise<Response>;
}

export function canonicalPath({ refuseUnderV1 }: CanonicalPathOptions): MiddlewareHandler {
  return async (c, next) => {
    const path = pathOf(rawTarget(c));
    if (isCanonicalPath(path)) return next();
    if (/^\/v1(?:[/\\%?#]|$)/.test(path)) return refuseUnderV1(c);
    throw new ApiError(404, MESSAGES.pathNotCanonical);
  };
}

/** The canonical-path stage of the pipeline. The direct path takes only its route's literal path, which is canonical. */
export function canonicalPathStage(options: CanonicalPathOptions): Stage {
  return {
    name: 'canonical-path',
    middleware: canonicalPath(options),
    // The direct path takes only its route's literal path, canonical by construction: nothing to check there.
    direct: {},
  };
}

/**
 * The node adapter answers a raw backslash in the path with a bare 400 before any route runs. Sent on
 * encoded instead, it gets the same refusal as every other odd path (404, rate-limit headers under /v1).
 */
export function encodeBackslashes(target: string): string {
  const query = target.search(/[?#]/);
  const path = query === -1 ? target : target.slice(0, query);
  if (!path.includes('\\')) return target;
  return path.replaceAll('\\', '%5C') + (query === -1 ? '' : target.slice(query));
}
