// The one place errors become responses: ApiError renders itself; anything else is logged and
// answered with a generic 500 (never the error's text, which could carry internals).
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { DomainRefusal } from '../../core/refusals/refusals.ts';
import { ApiError } from './errors.ts';
import { MESSAGES } from './messages.ts';
import { refusalToApiError } from './refusal-response.ts';

import type { Logger } from '../../core/support/logger.ts';

export { consoleLogger, type Logger } from '../../core/support/logger.ts';

/** What any error thrown while answering is answered with: its own ApiError, a refusal's, or a logged 500. */
export function toApiError(error: unknown, logger: Logger, method: string, path: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainRefusal) return refusalToApiError(error);
  logger.error(`Unhandled error on ${method} ${path}`, error);
  return new ApiError(500, MESSAGES.internal);
}

export function errorHandler(logger: Logger): ErrorHandler {
  return (error: Error, c: Context) => toApiError(error, logger, c.req.method, c.req.path).getResponse();
}

export const notFoundHandler: NotFoundHandler = (c) => new ApiError(404, MESSAGES.routeNotFound(c.req.method, c.req.path)).getResponse();
