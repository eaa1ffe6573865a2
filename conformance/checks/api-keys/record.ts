// The API key record of docs/decisions.md (assumed shape) and the list walk shared by the key checks.
import type { ApiKeyList, ApiKeyWithSecret } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient, HttpResponse } from '../../http/client.ts';
import type { Received } from '../../received.ts';

export const KEY_RECORD_FIELDS = ['id', 'name', 'prefix', 'ipWhitelist', 'expiresAt', 'revokedAt', 'lastUsedAt', 'status', 'createdAt'];

/** A key record as received (`key` only on create). */
export type KeyRecord = Received<ApiKeyWithSecret>;

/** Reports a record whose keys are not exactly the documented ones (plus `extra`). */
export function expectKeyRecord(ctx: CheckContext, record: unknown, response: HttpResponse, extra: string[] = []): void {
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

/** Every key record of the caller, walking the cursor (bounded). */
export async function listAllKeys(ctx: CheckContext, api: HttpClient, requirement: string): Promise<KeyRecord[]> {
  const all: KeyRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const response = await api.get('/v1/auth/api-keys', { limit: 100, cursor });
    ctx.requireStatus(response, 200, requirement, 'GET /v1/auth/api-keys does not list the keys');
    const body = response.json as Received<ApiKeyList>;
    ctx.require(
      Array.isArray(body?.data) && typeof body.hasMore === 'boolean',
      requirement,
      'Key list is not a list envelope',
      () => response.text.slice(0, 300),
      response.exchange,
    );
    all.push(...body.data);
    if (!body.hasMore) return all;
    cursor = body.data.at(-1)?.id;
  }
  return all;
}
