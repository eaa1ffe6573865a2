// POST /v1/auth/api-keys shows a pk_ key once and that key works; GET never shows a secret (only
// the prefix); DELETE revokes (the record says so, the key stops working); unknown ids are 404.
// Expiry from 30 days to never: 30 and never are accepted, 29 is refused (assumed: 400).
import { randomUUID } from 'node:crypto';
import type { ApiKeyList } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import type { Received } from '../../received.ts';
import { expectKeyRecord, listAllKeys, type KeyRecord } from './record.ts';

async function keyOwner(ctx: CheckContext): Promise<HttpClient> {
  if (ctx.services.control) return (await ctx.newMerchant('api keys')).api;
  return ctx.api;
}

export const keyManagement = defineCheck({
  id: 'api-keys.management',
  title: 'API keys: created pk_ key is shown once and works, listing never shows secrets, revoke stops the key',
  requirements: [
    'KEY-CREATE-ENDPOINT',
    'KEY-LIST-ENDPOINT',
    'KEY-REVOKE-ENDPOINT',
    'AUTH-KEY-PREFIX',
    'AUTH-KEY-MANAGEMENT',
    'KEY-EXPIRY-RANGE',
    'AUTH-KEY-IP-WHITELIST-EXPIRY',
    'PAY-API-KEY-SCOPE',
    'KEY-CREATE-REQUEST',
    'KEY-CREATE-SECRET-ONCE',
    'KEY-RECORD-SHAPE',
    'KEY-LIST-PAGINATED',
    'KEY-REVOKE-200',
    'KEY-REVOKE-404',
    'KEY-HASHED-STORAGE',
  ],
  level: 'documented',
  needs: [],
  tags: ['security', 'api-keys', 'negative'],
  async run(ctx: CheckContext) {
    const api = await keyOwner(ctx);
    const created = await api.post('/v1/auth/api-keys', { name: 'conformance key management', expiresInDays: 30 });
    ctx.requireStatus(created, 201, 'KEY-CREATE-ENDPOINT', 'POST /v1/auth/api-keys does not create a key');
    const record = created.json as KeyRecord;
    ctx.require(
      typeof record?.key === 'string' && typeof record.id === 'string',
      'KEY-CREATE-ENDPOINT',
      'The created key is not shown',
      () => `response fields ${Object.keys(record ?? {}).join(', ')}`,
      created.exchange,
    );
    const key = record.key as string;
    ctx.services.secrets.add(key, 'MANAGED_API_KEY');
    const credential = { key, label: 'MANAGED_API_KEY' };
    ctx.onCleanup(async () => void (await api.delete(`/v1/auth/api-keys/${record.id}`)));
    ctx.addCases();
    ctx.expect(
      key.startsWith('pk_'),
      'AUTH-KEY-PREFIX',
      'The new key is not prefixed pk_',
      `key starts with ${JSON.stringify(key.slice(0, 3))}`,
      created.exchange,
    );
    ctx.expect(
      /^pk_[A-Za-z0-9]{48}$/.test(key),
      'KEY-CREATE-SECRET-ONCE',
      'The new key is not pk_ + 48 characters',
      `key length ${key.length}`,
      created.exchange,
    );
    expectKeyRecord(ctx, record, created, ['key']);
    ctx.expect(
      typeof record.prefix === 'string' && key.startsWith(record.prefix),
      'KEY-HASHED-STORAGE',
      'The record prefix is not the start of the key',
      `prefix ${JSON.stringify(record.prefix)}`,
      created.exchange,
    );
    const expiresAt = Date.parse(String(record.expiresAt));
    const createdAt = Date.parse(String(record.createdAt));
    ctx.expect(
      Math.abs(expiresAt - createdAt - 30 * 86_400_000) < 60_000,
      'KEY-EXPIRY-RANGE',
      'expiresInDays 30 does not give an expiry 30 days out',
      `createdAt ${record.createdAt}, expiresAt ${record.expiresAt}`,
      created.exchange,
    );

    // The new key drives the same API as the merchant's first one (payments, webhooks, analytics, ledger, keys).
    for (const path of ['/v1/payments', '/v1/auth/api-keys', '/v1/transactions', '/v1/analytics']) {
      ctx.addCases();
      const works = await api.request({ method: 'GET', path, auth: credential });
      ctx.expect(
        works.status === 200,
        path === '/v1/auth/api-keys' ? 'AUTH-KEY-MANAGEMENT' : 'PAY-API-KEY-SCOPE',
        'A newly created key is refused',
        `GET ${path} with the new key answered ${works.status}`,
        works.exchange,
      );
    }

    const listed = await listAllKeys(ctx, api, 'KEY-LIST-ENDPOINT');
    ctx.addCases(listed.length);
    ctx.expect(
      listed.some((k) => k.id === record.id),
      'KEY-LIST-ENDPOINT',
      'The new key is not listed',
      `${listed.length} keys listed, none with id ${record.id}`,
    );
    const listText = JSON.stringify(listed);
    ctx.expect(
      !listText.includes(key) && !listed.some((k) => 'key' in k),
      'KEY-CREATE-SECRET-ONCE',
      'Listing keys shows a secret',
      'GET /v1/auth/api-keys returned a key (or a `key` field); the secret must be shown only at create',
    );
    const page = await api.get('/v1/auth/api-keys', { limit: 1 });
    ctx.requireStatus(page, 200, 'KEY-LIST-PAGINATED', 'GET /v1/auth/api-keys?limit=1 refused');
    const pageBody = page.json as Received<ApiKeyList>;
    ctx.expect(
      pageBody?.data?.length === 1 && pageBody.hasMore === true && pageBody.nextCursor === pageBody.data[0]?.id,
      'KEY-LIST-PAGINATED',
      'limit=1 over two keys does not give a one-item page with hasMore and nextCursor',
      () => page.text.slice(0, 300),
      page.exchange,
    );
    if (pageBody?.data?.[0]) expectKeyRecord(ctx, pageBody.data[0], page);

    for (const [body, why] of [
      [{ expiresInDays: 29 }, '29 days'],
      [{ expiresInDays: 0 }, '0 days'],
      [{ ipWhitelist: ['not an address'] }, 'a whitelist entry that is no address'],
    ] as const) {
      ctx.addCases();
      const refused = await api.post('/v1/auth/api-keys', body);
      ctx.expect(
        refused.status === 400,
        body === undefined || 'expiresInDays' in body ? 'KEY-EXPIRY-RANGE' : 'KEY-CREATE-REQUEST',
        `A key with ${why} is not refused`,
        `answered ${refused.status}: ${refused.text.slice(0, 200)}`,
        refused.exchange,
      );
      const stray = refused.json as KeyRecord | undefined;
      if (refused.status < 300 && typeof stray?.id === 'string') await api.delete(`/v1/auth/api-keys/${stray.id}`);
    }
    const never = await api.post('/v1/auth/api-keys', {
      name: 'conformance never expires',
      expiresInDays: null,
      ipWhitelist: ['0.0.0.0/0', '::/0'],
    });
    ctx.addCases();
    if (
      ctx.expect(
        never.status === 201,
        'KEY-EXPIRY-RANGE',
        'A key that never expires (expiresInDays null) is refused',
        `answered ${never.status}: ${never.text.slice(0, 200)}`,
        never.exchange,
      )
    ) {
      const neverRecord = never.json as KeyRecord;
      ctx.services.secrets.add(String(neverRecord.key), 'NEVER_EXPIRING_API_KEY');
      ctx.expect(
        neverRecord.expiresAt === null,
        'KEY-EXPIRY-RANGE',
        'A never-expiring key has an expiry',
        `expiresAt ${JSON.stringify(neverRecord.expiresAt)}`,
        never.exchange,
      );
      ctx.expect(
        JSON.stringify(neverRecord.ipWhitelist) === JSON.stringify(['0.0.0.0/0', '::/0']),
        'AUTH-KEY-IP-WHITELIST-EXPIRY',
        'The IP whitelist is not kept as given',
        `ipWhitelist ${JSON.stringify(neverRecord.ipWhitelist)}`,
        never.exchange,
      );
      await api.delete(`/v1/auth/api-keys/${neverRecord.id}`);
    }

    const revoke = await api.delete(`/v1/auth/api-keys/${record.id}`);
    ctx.addCases();
    ctx.requireStatus(revoke, [200, 204], 'KEY-REVOKE-ENDPOINT', 'DELETE /v1/auth/api-keys/{id} does not revoke');
    const revoked = revoke.json as KeyRecord | undefined;
    ctx.expect(
      revoke.status === 200 && revoked?.status === 'revoked' && typeof revoked.revokedAt === 'string',
      'KEY-REVOKE-200',
      'Revoke does not answer 200 with the revoked record',
      () => `${revoke.status} ${revoke.text.slice(0, 200)}`,
      revoke.exchange,
    );
    const after = await api.request({ method: 'GET', path: '/v1/payments', auth: credential });
    ctx.expect(
      after.status === 401,
      'KEY-REVOKE-ENDPOINT',
      'A revoked key still works',
      `GET /v1/payments with the revoked key answered ${after.status}`,
      after.exchange,
    );
    const unknown = await api.delete(`/v1/auth/api-keys/${randomUUID()}`);
    ctx.addCases();
    ctx.expect(
      unknown.status === 404,
      'KEY-REVOKE-404',
      'Revoking an unknown key is not 404',
      `answered ${unknown.status}: ${unknown.text.slice(0, 200)}`,
      unknown.exchange,
    );
  },
});
