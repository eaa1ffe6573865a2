// One error class for every HTTP error the simulator returns; `app.onError` renders it.
// Bodies follow the spec's error shape: { statusCode, message, error, errors? }.
import type { ErrorBody, FieldError } from '@stablepay/contract/types';

export type { ErrorBody, FieldError };

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export function reasonPhrase(status: number): string {
  return REASON[status] ?? 'Error';
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  body(): ErrorBody {
    const body: ErrorBody = { statusCode: this.status, message: this.message, error: reasonPhrase(this.status) };
    if (this.errors) body.errors = this.errors;
    return body;
  }

  getResponse(): Response {
    return new Response(JSON.stringify(this.body()), {
      status: this.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...this.headers },
    });
  }
}

/** 400 with one `errors[]` entry per invalid field. */
export function validationError(errors: FieldError[]): ApiError {
  return new ApiError(400, 'Validation failed', { errors });
}

export const notFound = (what = 'Payment'): ApiError => new ApiError(404, `${what} not found`);
export const unauthorized = (message = 'Unauthorized'): ApiError => new ApiError(401, message);
export const conflict = (message: string): ApiError => new ApiError(409, message);
export const badRequest = (message: string): ApiError => new ApiError(400, message);
