// Query parameters shared by every list endpoint: cursor and limit (decisions.md "Common").
import type { Context } from 'hono';
import type { ListEnvelope } from '@stablepay/contract/types';
import type { Problems } from '../../core/validation/problems.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** A single-valued query parameter; repeated values are a problem at `[name]`. */
export function singleQuery(c: Context, name: string, problems: Problems): string | undefined {
  const values = c.req.queries(name);
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) {
    problems.add([name], `${name} must be given at most once`);
    return undefined;
  }
  return values[0];
}

export interface ListQuery {
  cursor: string | undefined;
  limit: number;
}

export function parseListQuery(c: Context, problems: Problems, maxLimit = MAX_LIMIT): ListQuery {
  const rawLimit = singleQuery(c, 'limit', problems);
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (/^[1-9][0-9]{0,2}$/.test(rawLimit) && Number(rawLimit) <= maxLimit) limit = Number(rawLimit);
    else problems.add(['limit'], `limit must be an integer from 1 to ${maxLimit}`);
  }
  const cursor = singleQuery(c, 'cursor', problems);
  if (cursor === '') problems.add(['cursor'], 'cursor must not be empty');
  return { cursor: cursor || undefined, limit };
}

export type { ListEnvelope };

export function envelope<T extends { id: string }>(data: T[], hasMore: boolean): ListEnvelope<T> {
  return { data, nextCursor: hasMore ? (data.at(-1)?.id ?? null) : null, hasMore } satisfies ListEnvelope<T>;
}
