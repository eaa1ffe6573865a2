// Middleware: one log record per request once the response is ready. Mounted first in app.ts so
// it also sees 401s, 429s and errors rendered by onError.
import type { MiddlewareHandler } from 'hono';
import type { Identity } from '../v1/identify.ts';
import type { Stage } from '../http/pipeline.ts';
import type { LogRecord, LogSink } from './log-records.ts';

export function requestLog(sink: LogSink): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    sink(requestRecord(c.req.method, c.req.path, c.res.status, started, c.get('merchantId' as never), c.get('identity' as never)));
  };
}

/** The request's log record: the merchant of its API key when the key was valid. */
function requestRecord(method: string, path: string, status: number, started: number, merchantId: unknown, identity: unknown): LogRecord {
  const identified = identity as Identity | undefined;
  const merchant = (merchantId as string | undefined) ?? (identified?.ok ? identified.record.merchantId : null);
  return { kind: 'request', method, path, status, ms: Math.round(performance.now() - started), merchant };
}

/** The request-log stage of the pipeline: first, so it also sees 401s, 429s and errors. */
export function requestLogStage(sink: LogSink): Stage {
  return {
    name: 'request-log',
    middleware: requestLog(sink),
    direct: {
      afterAnswer(request, status) {
        sink(requestRecord(request.method, request.path, status, request.started, request.vars.merchantId, request.vars.identity));
      },
    },
  };
}
