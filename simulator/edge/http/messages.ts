// Error strings the HTTP layer returns, in one place (the payment refusals' own come from payments/).
import { PAYMENT_REFUSALS } from '../../core/refusals/payment-refusals.ts';

export const MESSAGES = {
  contentType: 'Content-Type must be application/json',
  notJson: 'Request body is not valid JSON',
  bodyCutShort: 'Request body ended before it was complete: the client closed the connection',
  bodyTooLarge: (max: number) => `Request body exceeds ${max} bytes`,
  notObject: 'Request body must be a JSON object',
  authMissing: 'Missing Authorization header (expected: Bearer pk_...)',
  authNotBearer: 'Authorization header must use the Bearer scheme',
  authMalformed: 'Malformed API key (expected a pk_ key)',
  authUnknown: 'Invalid API key',
  authRevoked: 'API key has been revoked',
  authExpired: 'API key has expired',
  authIpDenied: "Client IP address is not in this API key's whitelist",
  rateLimited: (retryAfter: number) => `Rate limit exceeded; retry in ${retryAfter} s`,
  methodNotAllowed: (method: string, path: string) => `Method ${method} is not allowed on ${path}`,
  routeNotFound: (method: string, path: string) => `Route ${method} ${path} not found`,
  internal: 'Internal server error',
  pathNotCanonical: 'Route not found: the path is not in canonical form (encoded or dot segments, empty segments, backslashes)',
  paymentNotActive: PAYMENT_REFUSALS.notActive,
  externalIdInUse: PAYMENT_REFUSALS.externalIdInUse,
  apiKeyLimit: (limit: number) => `This merchant already has ${limit} active API keys`,
} as const;
