// The body of POST /control/v1/listeners: where to deliver, the secret to sign with (the client's stable secret for
// its listener identity), and which events. One errors[] entry per invalid field.
import { invalidFields, type FieldProblem } from '../refusals/refusals.ts';
import { SECRET_PREFIX } from './sign.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './types.ts';
import { checkWebhookUrl, requireJsonObject } from './validate.ts';

/** The format generateSecret() makes: whsec_ and 64 hex digits. */
export const LISTENER_SECRET_PATTERN = new RegExp(`^${SECRET_PREFIX}[0-9a-f]{64}$`);

const FIELDS = new Set(['url', 'secret', 'events']);

export interface ListenerInput {
  url: string;
  secret: string;
  events: WebhookEventType[] | null;
}

export function validateListener(raw: unknown): ListenerInput {
  const body = requireJsonObject(raw);
  const problems: FieldProblem[] = Object.keys(body)
    .filter((key) => !FIELDS.has(key))
    .map((key) => ({ path: [key], message: `Unknown field: ${key}` }));
  const urlProblem = body.url === undefined ? 'url is required' : checkWebhookUrl(body.url);
  if (urlProblem) problems.push({ path: ['url'], message: urlProblem });
  if (typeof body.secret !== 'string' || !LISTENER_SECRET_PATTERN.test(body.secret))
    problems.push({ path: ['secret'], message: `secret must be ${SECRET_PREFIX} followed by 64 lowercase hex digits` });
  let events: WebhookEventType[] | null = null;
  if (body.events !== undefined && body.events !== null) {
    const known = WEBHOOK_EVENT_TYPES as readonly string[];
    if (
      !Array.isArray(body.events) ||
      body.events.length === 0 ||
      body.events.some((e) => typeof e !== 'string' || !known.includes(e)) ||
      new Set(body.events).size !== body.events.length
    )
      problems.push({ path: ['events'], message: `events must be a non-empty list without duplicates of: ${known.join(', ')}` });
    else events = body.events as WebhookEventType[];
  }
  if (problems.length > 0) throw invalidFields(problems);
  return { url: body.url as string, secret: body.secret as string, events };
}
