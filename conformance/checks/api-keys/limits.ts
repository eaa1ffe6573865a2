// A merchant's key limit gives 409 (spec §7; assumed: 10 active keys, revoking one frees a slot),
// and an IP whitelist that excludes the caller makes a key refused with 401 while one that
// includes every address works. A merchant of its own with the control API; else the main merchant, whose keys made
// here are all revoked afterwards (its own key is never touched).
import type { ErrorBody } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import type { Received } from '../../received.ts';
import { listAllKeys, type KeyRecord } from './record.ts';

const KEY_LIMIT = 10;

export const keyLimits = defineCheck({
  id: 'api-keys.limit-and-whitelist',
  title: 'The API key limit gives 409; a key whose IP whitelist excludes the caller is refused',
  requirements: ['ERR-409-API-KEY-LIMIT', 'KEY-LIMIT-10-ACTIVE', 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'AUTH-401-CASES', 'ERR-BODY-SHAPE'],
  level: 'documented',
  needs: [],
  tags: ['security', 'api-keys'],
  async run(ctx: CheckContext) {
    const api = ctx.services.control ? (await ctx.newMerchant('key limit')).api : ctx.api;
    const made: string[] = [];
    ctx.onCleanup(async () => {
      for (const id of made) await api.delete(`/v1/auth/api-keys/${id}`);
    });
    const remember = (response: { status: number; json: unknown }) => {
      if (response.status === 201) made.push(String((response.json as KeyRecord).id));
    };
    const elsewhere = await api.post('/v1/auth/api-keys', { name: 'conformance whitelist elsewhere', ipWhitelist: ['203.0.113.7'] });
    remember(elsewhere);
    ctx.requireStatus(elsewhere, 201, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'A key with an IP whitelist cannot be created');
    const fenced = elsewhere.json as KeyRecord;
    ctx.services.secrets.add(String(fenced.key), 'WHITELISTED_ELSEWHERE_API_KEY');
    const outside = await api.request({
      method: 'GET',
      path: '/v1/payments',
      auth: { key: String(fenced.key), label: 'WHITELISTED_ELSEWHERE_API_KEY' },
    });
    ctx.addCases();
    ctx.expect(
      outside.status === 401,
      'AUTH-KEY-IP-WHITELIST-EXPIRY',
      'A key used from outside its IP whitelist is not refused',
      `whitelist [203.0.113.7]; GET /v1/payments answered ${outside.status}`,
      outside.exchange,
    );
    const open = await api.post('/v1/auth/api-keys', { name: 'conformance whitelist everywhere', ipWhitelist: ['0.0.0.0/0', '::/0'] });
    remember(open);
    ctx.requireStatus(open, 201, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'A key with an all-addresses whitelist cannot be created');
    const openKey = String((open.json as KeyRecord).key);
    ctx.services.secrets.add(openKey, 'WHITELISTED_EVERYWHERE_API_KEY');
    const inside = await api.request({
      method: 'GET',
      path: '/v1/payments',
      auth: { key: openKey, label: 'WHITELISTED_EVERYWHERE_API_KEY' },
    });
    ctx.addCases();
    ctx.expect(
      inside.status === 200,
      'AUTH-KEY-IP-WHITELIST-EXPIRY',
      'A key used from inside its IP whitelist is refused',
      `whitelist [0.0.0.0/0, ::/0]; GET /v1/payments answered ${inside.status}`,
      inside.exchange,
    );

    const active = (await listAllKeys(ctx, api, 'KEY-LIMIT-10-ACTIVE')).filter((k) => k.status === 'active');
    let issued = active.length;
    let refused: Awaited<ReturnType<typeof api.post>> | undefined;
    for (let attempt = 0; attempt < KEY_LIMIT * 3 && !refused; attempt++) {
      const response = await api.post('/v1/auth/api-keys', { name: `conformance limit ${attempt}` });
      remember(response);
      ctx.addCases();
      if (response.status === 201) {
        issued++;
        ctx.services.secrets.add(String((response.json as KeyRecord).key), `LIMIT_PROBE_KEY_${attempt}`);
      } else refused = response;
    }
    ctx.require(
      refused !== undefined,
      'ERR-409-API-KEY-LIMIT',
      'No key limit is reached',
      `${issued} active keys and creates still succeed`,
    );
    ctx.expect(
      refused.status === 409,
      'ERR-409-API-KEY-LIMIT',
      'Reaching the key limit is not 409',
      `after ${issued} active keys: ${refused.status} ${refused.text.slice(0, 200)}`,
      refused.exchange,
    );
    const body = refused.json as Received<ErrorBody>;
    ctx.expect(
      body?.statusCode === 409 && body.error === 'Conflict' && typeof body.message === 'string',
      'ERR-BODY-SHAPE',
      'The key-limit 409 body is not {statusCode, message, error}',
      () => refused.text.slice(0, 200),
      refused.exchange,
    );
    ctx.expect(
      issued === KEY_LIMIT,
      'KEY-LIMIT-10-ACTIVE',
      'The key limit is not 10 active keys',
      `refused after ${issued} active keys`,
      refused.exchange,
    );
    // Revoking frees a slot: the limit counts active keys, not every key ever made.
    const revoke = await api.delete(`/v1/auth/api-keys/${fenced.id}`);
    ctx.requireStatus(revoke, 200, 'KEY-LIMIT-10-ACTIVE', 'Setup: revoke a key');
    const again = await api.post('/v1/auth/api-keys', { name: 'conformance limit after revoke' });
    remember(again);
    ctx.addCases();
    ctx.expect(
      again.status === 201,
      'KEY-LIMIT-10-ACTIVE',
      'Revoking a key does not free a slot under the limit',
      `answered ${again.status}: ${again.text.slice(0, 200)}`,
      again.exchange,
    );
    if (again.status === 201) ctx.services.secrets.add(String((again.json as KeyRecord).key), 'LIMIT_AFTER_REVOKE_KEY');
  },
});
