// POST /v1/auth/api-keys shows a pk_ key and that key works; GET lists it and never shows a secret; DELETE revokes
// (the key stops working); unknown ids are 404 (assumed). Expiry from 30 days to never: a 30-day key shows an expiry
// 30 days out, a key that never expires is accepted, 29 and 0 days are not granted. The spec shows no payload, so the
// bodies are the templates the run established and fields are read where the run found them (premises api-keys.*).
import { randomUUID } from 'node:crypto';
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import type { PremiseId } from '../../premises/definitions.ts';
import { fieldValue } from '../../premises/discover/fields.ts';
import { defineCheck } from '../../registry.ts';
import { createKey, expiryOf } from '../../support/api-keys.ts';
import { getList } from '../../support/lists.ts';
import { expectKeyRecord, keyIdOf, listAllKeys, type KeyRecord } from './record.ts';

const DAY = 86_400_000;
/** How far an expiry read back may be from the one asked for (clock skew, a clock moved from outside). */
const EXPIRY_TOLERANCE_MS = 3_600_000;

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
    'PAY-API-KEY-SCOPE',
    'LIST-ENVELOPE-FIELDS',
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
  premises: [
    'api-keys.create-body',
    'api-keys.expiring-body',
    'api-keys.never-expiring-body',
    'api-keys.whitelist-body',
    'api-keys.secret-field',
    'api-keys.id-field',
    'api-keys.expiry-field',
    'list.item-key',
  ],
  async run(ctx: CheckContext) {
    const api = await keyOwner(ctx);
    // The key whose life is followed is a plain one; the expiry is judged on keys of its own below, so a body whose
    // expiry the implementation reads otherwise weighs only on what the expiry says.
    const created = await createKey(ctx, api, 'plain', { name: 'conformance key management' }, 'MANAGED_API_KEY');
    ctx.require(
      created.ok,
      'KEY-CREATE-ENDPOINT',
      'POST /v1/auth/api-keys does not create a key',
      () => `sent ${JSON.stringify(created.sent)}; answered ${created.response.status}: ${created.response.text.slice(0, 300)}`,
      created.response.exchange,
    );
    ctx.require(
      created.key !== undefined && created.id !== undefined,
      'KEY-CREATE-ENDPOINT',
      'The created key is not shown',
      () =>
        `no key or no id where the run found them (premises api-keys.secret-field, api-keys.id-field): ${created.response.text.slice(0, 300)}`,
      created.response.exchange,
    );
    const { key, id } = created;
    const credential = { key, label: 'MANAGED_API_KEY' };
    ctx.onCleanup(async () => void (await api.delete(`/v1/auth/api-keys/${id}`)));
    ctx.addCases();
    ctx.expect(
      key.startsWith('pk_'),
      'AUTH-KEY-PREFIX',
      'The new key is not prefixed pk_',
      `key starts with ${JSON.stringify(key.slice(0, 3))}`,
      created.response.exchange,
    );
    ctx.expect(
      created.response.status === 201 && /^pk_[A-Za-z0-9]{48}$/.test(key),
      'KEY-CREATE-SECRET-ONCE',
      'The new key is not answered 201 with pk_ + 48 characters',
      `status ${created.response.status}, key length ${key.length}`,
      created.response.exchange,
    );
    const record = created.record as KeyRecord;
    expectKeyRecord(ctx, record, created.response, ['key']);
    ctx.expect(
      typeof record.prefix === 'string' && key.startsWith(record.prefix),
      'KEY-HASHED-STORAGE',
      'The record prefix is not the start of the key',
      `prefix ${JSON.stringify(record.prefix)}`,
      created.response.exchange,
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
    const ids = await Promise.all(listed.map((k) => keyIdOf(ctx, k)));
    ctx.expect(ids.includes(id), 'KEY-LIST-ENDPOINT', 'The new key is not listed', `${listed.length} keys listed, none with id ${id}`);
    const secretField = await ctx.premise('api-keys.secret-field');
    ctx.expect(
      !JSON.stringify(listed).includes(key) && !listed.some((k) => fieldValue(k, secretField) !== undefined),
      'KEY-CREATE-SECRET-ONCE',
      'Listing keys shows a secret',
      `GET /v1/auth/api-keys returned a key (or a \`${secretField}\` field); the secret must be shown only at create`,
    );
    const page = await getList<KeyRecord>(ctx, api, '/v1/auth/api-keys', { limit: 1 });
    ctx.addCases();
    if (
      ctx.expect(
        page.status === 200 && page.items !== null && page.envelope,
        'LIST-ENVELOPE-FIELDS',
        'GET /v1/auth/api-keys?limit=1 is not a list envelope',
        () => `${page.status} ${page.exchange.responseBody.slice(0, 300)}`,
        page.exchange,
      )
    ) {
      ctx.expect(
        page.items!.length === 1 && page.hasMore === true && page.nextCursor === (await keyIdOf(ctx, page.items![0])),
        'KEY-LIST-PAGINATED',
        'limit=1 over two keys does not give a one-item page with hasMore and nextCursor',
        () => page.exchange.responseBody.slice(0, 300),
        page.exchange,
      );
      if (page.items![0]) expectKeyRecord(ctx, page.items![0], page);
    }

    const revoke = await api.delete(`/v1/auth/api-keys/${id}`);
    ctx.addCases();
    ctx.require(
      revoke.status >= 200 && revoke.status < 300,
      'KEY-REVOKE-ENDPOINT',
      'DELETE /v1/auth/api-keys/{id} does not revoke',
      () => `answered ${revoke.status}: ${revoke.text.slice(0, 300)}`,
      revoke.exchange,
    );
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

    await judgeExpiry(ctx, api);
  },
});

/**
 * Expiry from 30 days to never: a 30-day key shows an expiry 30 days out, 29 and 0 days are not granted, a key that
 * never expires is accepted. Each rests on its own body's premise (expiring, never-expiring) and on the expiry field.
 */
async function judgeExpiry(ctx: CheckContext, api: HttpClient): Promise<void> {
  const expiring: PremiseId[] = ['api-keys.expiring-body', 'api-keys.expiry-field', 'api-keys.id-field'];
  const now = await ctx.clock.refresh();
  const thirty = await createKey(ctx, api, 'expiring', { name: 'conformance 30 days', expiresInDays: 30 }, 'THIRTY_DAY_KEY');
  ctx.addCases();
  if (thirty.ok && thirty.id) ctx.onCleanup(async () => void (await api.delete(`/v1/auth/api-keys/${thirty.id}`)));
  if (
    ctx.expect(
      thirty.ok,
      'KEY-CREATE-ENDPOINT',
      'A key that expires in 30 days cannot be created',
      `sent ${JSON.stringify(thirty.sent)}; answered ${thirty.response.status}: ${thirty.response.text.slice(0, 200)}`,
      thirty.response.exchange,
      { premises: expiring },
    )
  ) {
    const expiry = await expiryOf(ctx, thirty.record);
    if (expiry !== undefined) {
      // What the record shows must be the expiry asked for, and within the range the spec allows.
      const shown = expiry === null ? 'no expiry' : new Date(expiry).toISOString();
      ctx.expect(
        expiry !== null && Math.abs(expiry - (now + 30 * DAY)) <= EXPIRY_TOLERANCE_MS,
        'KEY-CREATE-ENDPOINT',
        'A key created to expire in 30 days does not',
        `sent ${JSON.stringify(thirty.sent)}; the record shows ${shown}`,
        thirty.response.exchange,
        { premises: expiring },
      );
      ctx.expect(
        expiry === null || expiry >= now + 30 * DAY - EXPIRY_TOLERANCE_MS,
        'KEY-EXPIRY-RANGE',
        'A key expires sooner than 30 days',
        `the record shows ${shown}, created at about ${new Date(now).toISOString()}`,
        thirty.response.exchange,
        { premises: expiring },
      );
    }
  }
  // 29 and 0 days are outside "30 days to never": the key must not be granted that expiry (refusing it is ours: 400).
  for (const days of [29, 0]) {
    ctx.addCases();
    const short = await createKey(
      ctx,
      api,
      'expiring',
      { name: `conformance ${days} days`, expiresInDays: days },
      `SHORT_EXPIRY_KEY_${days}`,
    );
    if (short.ok && short.id) await api.delete(`/v1/auth/api-keys/${short.id}`);
    ctx.expect(
      short.response.status === 400,
      'KEY-CREATE-REQUEST',
      `A key expiring in ${days} days is not refused with 400`,
      `sent ${JSON.stringify(short.sent)}; answered ${short.response.status}: ${short.response.text.slice(0, 200)}`,
      short.response.exchange,
    );
    if (!short.ok) {
      ctx.judged('KEY-EXPIRY-RANGE');
      continue;
    }
    const granted = await expiryOf(ctx, short.record);
    if (granted === undefined) continue;
    ctx.expect(
      granted === null || granted >= now + 30 * DAY - EXPIRY_TOLERANCE_MS,
      'KEY-EXPIRY-RANGE',
      `A key was granted an expiry of ${days} days`,
      `sent ${JSON.stringify(short.sent)}; the record shows ${granted === null ? 'no expiry' : new Date(granted).toISOString()}`,
      short.response.exchange,
      { premises: expiring },
    );
  }
  const badWhitelist = await createKey(
    ctx,
    api,
    'whitelist',
    { name: 'conformance bad whitelist', ipWhitelist: ['not an address'] },
    'BAD_WHITELIST_KEY',
  );
  ctx.addCases();
  if (badWhitelist.ok && badWhitelist.id) await api.delete(`/v1/auth/api-keys/${badWhitelist.id}`);
  ctx.expect(
    badWhitelist.response.status === 400,
    'KEY-CREATE-REQUEST',
    'A key with a whitelist entry that is no address is not refused',
    `sent ${JSON.stringify(badWhitelist.sent)}; answered ${badWhitelist.response.status}: ${badWhitelist.response.text.slice(0, 200)}`,
    badWhitelist.response.exchange,
  );

  const neverPremises: PremiseId[] = ['api-keys.never-expiring-body', 'api-keys.expiry-field', 'api-keys.id-field'];
  const never = await createKey(ctx, api, 'never-expiring', { name: 'conformance never expires' }, 'NEVER_EXPIRING_API_KEY');
  ctx.addCases();
  if (
    ctx.expect(
      never.ok,
      'KEY-EXPIRY-RANGE',
      'A key that never expires is refused',
      `sent ${JSON.stringify(never.sent)}; answered ${never.response.status}: ${never.response.text.slice(0, 200)}`,
      never.response.exchange,
      { premises: ['api-keys.never-expiring-body'] },
    )
  ) {
    const shown = await expiryOf(ctx, never.record);
    if (shown !== undefined)
      ctx.expect(
        shown === null,
        'KEY-EXPIRY-RANGE',
        'A key created never to expire has an expiry',
        `sent ${JSON.stringify(never.sent)}; the record shows ${shown === null ? 'none' : new Date(shown).toISOString()}`,
        never.response.exchange,
        { premises: neverPremises },
      );
    if (never.id) await api.delete(`/v1/auth/api-keys/${never.id}`);
  }
}
