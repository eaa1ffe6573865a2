// Middleware: one log record per request once the response is ready. Mounted first in app.ts so
// it also sees 401s, 429s and errors rendered by onError.
import type { MiddlewareHandler } from 'hono';
import type { Identity } from '../v1/identify.ts';
import type { LogSink } from './log-records.ts';

export function requestLog(sink: LogSink): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const identity = c.get('identity' as never) as Identity | undefined;
    const merchant = (c.get('merchantId' as never) as string | undefined) ?? (identity?.ok ? identity.record.merchantId : null);
    sink({ kind: 'request', method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started), merchant });
  };
}
