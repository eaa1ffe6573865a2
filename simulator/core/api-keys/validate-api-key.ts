// Body of POST /v1/auth/api-keys (and the control API's key creation, which may also set an
// arbitrary expiresAt so tests can make already-expired keys).
import { charLength, objectBody, parseDateTime, Problems, rejectUnknownFields } from '../validation/index.ts';
import type { NewKeyInput } from './api-key-store.ts';
import { whitelistEntryProblem } from './ip-whitelist.ts';

export const NAME_MAX = 100;
export const WHITELIST_MAX = 20;
export const EXPIRES_IN_DAYS_MIN = 30;
export const EXPIRES_IN_DAYS_MAX = 3650;
const DAY_MS = 86_400_000;

export function validateApiKeyInput(raw: unknown, now: number, options: { allowExpiresAt?: boolean } = {}): NewKeyInput {
  const problems = new Problems();
  const body = objectBody(raw);
  const fields = ['name', 'ipWhitelist', 'expiresInDays', ...(options.allowExpiresAt ? ['expiresAt'] : [])];
  rejectUnknownFields(body, fields, problems);
  const input: NewKeyInput = {};

  if (body.name !== undefined && body.name !== null) {
    if (typeof body.name !== 'string' || charLength(body.name) > NAME_MAX)
      problems.add(['name'], `name must be a string of at most ${NAME_MAX} characters`);
    else input.name = body.name;
  }

  if (body.ipWhitelist !== undefined && body.ipWhitelist !== null) {
    if (!Array.isArray(body.ipWhitelist) || body.ipWhitelist.length === 0 || body.ipWhitelist.length > WHITELIST_MAX) {
      problems.add(['ipWhitelist'], `ipWhitelist must be an array of 1 to ${WHITELIST_MAX} addresses or CIDR ranges`);
    } else {
      body.ipWhitelist.forEach((entry: unknown, i) => {
        const problem = whitelistEntryProblem(entry);
        if (problem) problems.add(['ipWhitelist', i], `ipWhitelist[${i}] ${problem}`);
      });
      if (!problems.hasUnder(['ipWhitelist'])) input.ipWhitelist = body.ipWhitelist as string[];
    }
  }

  if (body.expiresInDays !== undefined && body.expiresInDays !== null) {
    const days = body.expiresInDays;
    // The dashboard (control API) may make keys of any lifetime, the API only 30 days..10 years.
    const min = options.allowExpiresAt ? 0 : EXPIRES_IN_DAYS_MIN;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < min || days > EXPIRES_IN_DAYS_MAX) {
      problems.add(['expiresInDays'], `expiresInDays must be an integer from ${min} to ${EXPIRES_IN_DAYS_MAX}, or null for never`);
    } else input.expiresAt = now + days * DAY_MS;
  }

  if (options.allowExpiresAt && body.expiresAt !== undefined && body.expiresAt !== null) {
    const at = typeof body.expiresAt === 'string' ? parseDateTime(body.expiresAt) : undefined;
    if (at === undefined) problems.add(['expiresAt'], 'expiresAt must be an ISO 8601 date-time');
    else if (body.expiresInDays !== undefined && body.expiresInDays !== null)
      problems.add(['expiresAt'], 'Give expiresAt or expiresInDays, not both');
    else input.expiresAt = at;
  }

  problems.throwIfAny();
  return input;
}
