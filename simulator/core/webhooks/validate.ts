// Request validation for the webhook routes: one errors[] entry per invalid field, paths as
// JSON segments (docs/decisions.md "Common"). Everything here throws the domain's Invalid refusal
// (a 400 at the edge), never anything that would become a 5xx.
import { invalidFields, type FieldProblem } from '../refusals/refusals.ts';
import type { DeliveryQuery } from './delivery-store.ts';
import type { EndpointPatch } from './endpoint-store.ts';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type DeliveryStatus, type WebhookEventType } from './types.ts';

export const MAX_URL_LENGTH = 2048;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const ENDPOINT_FIELDS = new Set(['url', 'enabled']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIMIT = /^[0-9]{1,3}$/;

export function requireJsonObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidFields([{ path: [], message: 'Body must be a JSON object' }]);
  }
  return value as Record<string, unknown>;
}

/** Returns an error message, or null for an acceptable webhook URL. */
export function checkWebhookUrl(value: unknown): string | null {
  if (typeof value !== 'string') return 'url must be a string';
  if (value.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  // The URL parser silently strips whitespace and accepts "http:host"; we store what we were
  // given, so only accept strings that already are plain absolute http(s) URLs.
  if (!/^https?:\/\//i.test(value) || /[\s\u0000-\u001f\u007f]/.test(value)) {
    return 'url must be an absolute http or https URL';
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (!parsed.hostname) return 'url must name a host';
  // fetch refuses URLs with credentials, so such an endpoint could never receive anything.
  if (parsed.username || parsed.password) return 'url must not contain credentials';
  return null;
}

function unknownFieldProblems(body: Record<string, unknown>): FieldProblem[] {
  return Object.keys(body)
    .filter((key) => !ENDPOINT_FIELDS.has(key))
    .map((key) => ({ path: [key], message: `Unknown field: ${key}` }));
}

export function validateCreateEndpoint(body: Record<string, unknown>): { url: string; enabled: boolean } {
  const errors = unknownFieldProblems(body);
  const urlError = body.url === undefined ? 'url is required' : checkWebhookUrl(body.url);
  if (urlError) errors.push({ path: ['url'], message: urlError });
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') {
    errors.push({ path: ['enabled'], message: 'enabled must be a boolean' });
  }
  if (errors.length > 0) throw invalidFields(errors);
  return { url: body.url as string, enabled: (body.enabled as boolean | undefined) ?? true };
}

export function validateUpdateEndpoint(body: Record<string, unknown>): EndpointPatch {
  const errors = unknownFieldProblems(body);
  if (body.url !== undefined) {
    const urlError = checkWebhookUrl(body.url);
    if (urlError) errors.push({ path: ['url'], message: urlError });
  }
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') {
    errors.push({ path: ['enabled'], message: 'enabled must be a boolean' });
  }
  if (body.url === undefined && body.enabled === undefined && errors.length === 0) {
    errors.push({ path: [], message: 'At least one of url, enabled is required' });
  }
  if (errors.length > 0) throw invalidFields(errors);
  const patch: EndpointPatch = {};
  if (body.url !== undefined) patch.url = body.url as string;
  if (body.enabled !== undefined) patch.enabled = body.enabled as boolean;
  return patch;
}

const EVENT_SET: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);
const STATUS_SET: ReadonlySet<string> = new Set(DELIVERY_STATUSES);

/**
 * `queries` as Hono's `c.req.queries()` gives them (every value of every key). A parameter
 * given twice is refused rather than silently taking one of the values.
 */
export function validateDeliveriesQuery(queries: Record<string, string[]>, cursorExists: (cursor: string) => boolean): DeliveryQuery {
  const errors: FieldProblem[] = [];
  const single = (name: string): string | undefined => {
    const values = queries[name];
    if (!values || values.length === 0) return undefined;
    if (values.length > 1) {
      errors.push({ path: [name], message: `${name} must be given at most once` });
      return undefined;
    }
    return values[0];
  };
  const query: DeliveryQuery = { limit: DEFAULT_PAGE_SIZE };

  const limit = single('limit');
  if (limit !== undefined) {
    const n = LIMIT.test(limit) ? Number(limit) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE) query.limit = n;
    else errors.push({ path: ['limit'], message: `limit must be an integer between 1 and ${MAX_PAGE_SIZE}` });
  }
  const cursor = single('cursor');
  if (cursor !== undefined) {
    if (cursorExists(cursor)) query.cursor = cursor;
    else errors.push({ path: ['cursor'], message: 'Unknown cursor' });
  }
  const event = single('event');
  if (event !== undefined) {
    if (EVENT_SET.has(event)) query.event = event as WebhookEventType;
    else errors.push({ path: ['event'], message: `event must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });
  }
  const status = single('status');
  if (status !== undefined) {
    if (STATUS_SET.has(status)) query.status = status as DeliveryStatus;
    else errors.push({ path: ['status'], message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` });
  }
  const paymentId = single('paymentId');
  if (paymentId !== undefined) {
    if (UUID.test(paymentId)) query.paymentId = paymentId;
    else errors.push({ path: ['paymentId'], message: 'paymentId must be a UUID' });
  }
  if (errors.length > 0) throw invalidFields(errors);
  return query;
}
