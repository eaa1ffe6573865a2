// The API key record of docs/decisions.md (assumed shape) and the list walk shared by the key checks. The list's
// item array and the record's id field are the ones the run established (premises list.item-key, api-keys.id-field).
import type { ApiKeyWithSecret } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient, HttpResponse } from '../../http/client.ts';
import { fieldValue } from '../../premises/discover/fields.ts';
import { getList } from '../../support/lists.ts';
import type { Received } from '../../received.ts';

export const KEY_RECORD_FIELDS = ['id', 'name', 'prefix', 'ipWhitelist', 'expiresAt', 'revokedAt', 'lastUsedAt', 'status', 'createdAt'];

/** A key record as received (`key` only on create). */
export type KeyRecord = Received<ApiKeyWithSecret>;

/** Reports a record whose keys are not exactly the simulator's (plus `extra`): an assumed shape, so it warns. */
export function expectKeyRecord(ctx: CheckContext, record: unknown, response: Pick<HttpResponse, 'exchange'>, extra: string[] = []): void {
  const keys = Object.keys((record ?? {}) as object).sort();
  const wanted = [...KEY_RECORD_FIELDS, ...extra].sort();
  ctx.expect(
    keys.join(',') === wanted.join(','),
    'KEY-RECORD-SHAPE',
    'API key record does not have the documented fields',
    `fields ${keys.join(', ')}; expected ${wanted.join(', ')}`,
    response.exchange,
  );
  const prefix = (record as KeyRecord | undefined)?.prefix;
  ctx.expect(
    typeof prefix === 'string' && /^pk_[A-Za-z0-9]{8}$/.test(prefix),
    'KEY-RECORD-SHAPE',
    'API key record prefix is not pk_ + 8 characters',
    `prefix ${JSON.stringify(prefix)}`,
    response.exchange,
  );
}

/** The id of a key record, by the established id field. */
export async function keyIdOf(ctx: CheckContext, record: unknown): Promise<unknown> {
  return fieldValue(record, await ctx.premise('api-keys.id-field'));
}

/** Every key record of the caller, walking the cursor (bounded). */
export async function listAllKeys(ctx: CheckContext, api: HttpClient, requirement: string): Promise<KeyRecord[]> {
  const all: KeyRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const list = await getList<KeyRecord>(ctx, api, '/v1/auth/api-keys', { limit: 100, cursor });
    ctx.require(
      list.status === 200,
      requirement,
      'GET /v1/auth/api-keys does not list the keys',
      () => `answered ${list.status}`,
      list.exchange,
    );
    ctx.require(
      list.items !== null && typeof list.hasMore === 'boolean',
      requirement,
      'Key list is not a list envelope',
      () => `no item array beside a boolean hasMore: ${list.exchange.responseBody.slice(0, 300)}`,
      list.exchange,
    );
    all.push(...list.items);
    if (!list.hasMore || list.items.length === 0) return all;
    const last = await keyIdOf(ctx, list.items.at(-1));
    cursor = typeof last === 'string' ? last : undefined;
  }
  return all;
}
