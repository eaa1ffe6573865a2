// A merchant's key limit gives 409 (spec §7; how many keys is not shown: assumed 10 active keys, revoking one frees a
// slot), and an IP whitelist that excludes the caller makes a key refused while one that includes every address
// works. Keys are created with the bodies the run established (premises api-keys.*); a limit the run does not reach
// within three times the established one refutes that premise rather than failing. A merchant of its own with the
// control API; else the main merchant, whose keys made here are all revoked afterwards (its own key is never touched).
import type { ErrorBody } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpResponse } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import { createKey, type CreatedKey } from '../../support/api-keys.ts';
import type { Received } from '../../received.ts';
import type { PremiseId } from '../../premises/definitions.ts';
import { listAllKeys } from './record.ts';

export const keyLimits = defineCheck({
  id: 'api-keys.limit-and-whitelist',
  title: 'The API key limit gives 409; a key whose IP whitelist excludes the caller is refused',
  requirements: ['ERR-409-API-KEY-LIMIT', 'KEY-LIMIT-10-ACTIVE', 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'AUTH-401-CASES', 'ERR-BODY-SHAPE'],
  level: 'documented',
  needs: [],
  tags: ['security', 'api-keys'],
  resources: { exclusive: ['main-merchant-books'] },
  premises: [
    'api-keys.whitelist-body',
    'api-keys.create-body',
    'api-keys.secret-field',
    'api-keys.id-field',
    'api-keys.limit',
    'list.item-key',
  ],
  async run(ctx: CheckContext) {
    const api = ctx.services.control ? (await ctx.newMerchant('key limit')).api : ctx.api;
    const made: string[] = [];
    ctx.onCleanup(async () => {
      for (const id of made) await api.delete(`/v1/auth/api-keys/${id}`);
    });
    const remember = (created: CreatedKey) => {
      if (created.id) made.push(created.id);
    };
    const elsewhere = await createKey(
      ctx,
      api,
      'whitelist',
      { name: 'conformance whitelist elsewhere', ipWhitelist: ['203.0.113.7'] },
      'WHITELISTED_ELSEWHERE_API_KEY',
    );
    remember(elsewhere);
    ctx.require(
      elsewhere.ok && elsewhere.key !== undefined,
      'AUTH-KEY-IP-WHITELIST-EXPIRY',
      'A key with an IP whitelist cannot be created',
      () => `sent ${JSON.stringify(elsewhere.sent)}; answered ${elsewhere.response.status}: ${elsewhere.response.text.slice(0, 300)}`,
      elsewhere.response.exchange,
    );
    const outside = await api.request({
      method: 'GET',
      path: '/v1/payments',
      auth: { key: elsewhere.key, label: 'WHITELISTED_ELSEWHERE_API_KEY' },
    });
    ctx.addCases();
    // Refused is documented (a whitelist that does not hold the caller); 401 for it is our choice.
    if (
      ctx.expect(
        outside.status >= 400 && outside.status < 500,
        'AUTH-KEY-IP-WHITELIST-EXPIRY',
        'A key used from outside its IP whitelist is not refused',
        `whitelist [203.0.113.7]; GET /v1/payments answered ${outside.status}`,
        outside.exchange,
      )
    ) {
      ctx.expect(
        outside.status === 401,
        'AUTH-401-CASES',
        'A key used from outside its IP whitelist is not refused with 401',
        `answered ${outside.status}`,
        outside.exchange,
      );
    }
    const open = await createKey(
      ctx,
      api,
      'whitelist',
      { name: 'conformance whitelist everywhere', ipWhitelist: ['0.0.0.0/0', '::/0'] },
      'WHITELISTED_EVERYWHERE_API_KEY',
    );
    remember(open);
    ctx.require(
      open.ok && open.key !== undefined,
      'AUTH-KEY-IP-WHITELIST-EXPIRY',
      'A key with an all-addresses whitelist cannot be created',
      () => `sent ${JSON.stringify(open.sent)}; answered ${open.response.status}: ${open.response.text.slice(0, 300)}`,
      open.response.exchange,
    );
    const inside = await api.request({
      method: 'GET',
      path: '/v1/payments',
      auth: { key: open.key, label: 'WHITELISTED_EVERYWHERE_API_KEY' },
    });
    ctx.addCases();
    ctx.expect(
      inside.status === 200,
      'AUTH-KEY-IP-WHITELIST-EXPIRY',
      'A key used from inside its IP whitelist is refused',
      `whitelist [0.0.0.0/0, ::/0]; GET /v1/payments answered ${inside.status}`,
      inside.exchange,
    );

    // Active keys: a record whose status says revoked is not one (the record's shape is not shown; without a status
    // field every listed key counts).
    // The limit rests on the plain body, the fields and the limit itself, not on the whitelist body above.
    const limitPremises: PremiseId[] = [
      'api-keys.create-body',
      'api-keys.secret-field',
      'api-keys.id-field',
      'api-keys.limit',
      'list.item-key',
    ];
    const listed = await listAllKeys(ctx, api, 'ERR-409-API-KEY-LIMIT');
    const active = listed.filter((k) => k.status === undefined || k.status === 'active').length;
    const limit = await ctx.premise('api-keys.limit');
    let issued = active;
    let refused: HttpResponse | undefined;
    for (let attempt = 0; attempt < limit * 3 && !refused; attempt++) {
      const created = await createKey(ctx, api, 'plain', { name: `conformance limit ${attempt}` }, `LIMIT_PROBE_KEY_${attempt}`);
      remember(created);
      ctx.addCases();
      if (created.ok) issued++;
      else refused = created.response;
    }
    if (!refused) {
      ctx.refutePremise('api-keys.limit', {
        sent: `POST /v1/auth/api-keys up to ${limit * 3} times`,
        seen: `${issued} active keys, every creation answered 2xx`,
      });
      ctx.require(
        false,
        'ERR-409-API-KEY-LIMIT',
        'No key limit is reached',
        `${issued} active keys and creates still succeed; the limit is not shown, so declare it (apiKeys.limit) for this check to reach it`,
        undefined,
        { premises: limitPremises },
      );
    }
    ctx.confirmPremise('api-keys.limit', issued, {
      sent: 'POST /v1/auth/api-keys until refused',
      seen: `refused with ${refused.status} after ${issued} active keys`,
    });
    ctx.expect(
      refused.status === 409,
      'ERR-409-API-KEY-LIMIT',
      'Reaching the key limit is not 409',
      `after ${issued} active keys: ${refused.status} ${refused.text.slice(0, 200)}`,
      refused.exchange,
      { premises: limitPremises },
    );
    const body = refused.json as Received<ErrorBody>;
    if (refused.status === 409)
      ctx.expect(
        body?.statusCode === 409 && body.error === 'Conflict' && typeof body.message === 'string',
        'ERR-BODY-SHAPE',
        'The key-limit 409 body is not {statusCode, message, error}',
        () => refused.text.slice(0, 200),
        refused.exchange,
        { premises: limitPremises },
      );
    ctx.expect(
      issued === 10,
      'KEY-LIMIT-10-ACTIVE',
      'The key limit is not 10 active keys',
      `refused after ${issued} active keys`,
      refused.exchange,
    );
    // Revoking frees a slot: the limit counts active keys, not every key ever made.
    const revoke = await api.delete(`/v1/auth/api-keys/${elsewhere.id}`);
    ctx.require(
      revoke.status >= 200 && revoke.status < 300,
      'KEY-LIMIT-10-ACTIVE',
      'Setup: revoke a key',
      () => `answered ${revoke.status}`,
      revoke.exchange,
    );
    const again = await createKey(ctx, api, 'plain', { name: 'conformance limit after revoke' }, 'LIMIT_AFTER_REVOKE_KEY');
    remember(again);
    ctx.addCases();
    ctx.expect(
      again.ok,
      'KEY-LIMIT-10-ACTIVE',
      'Revoking a key does not free a slot under the limit',
      `answered ${again.response.status}: ${again.response.text.slice(0, 200)}`,
      again.response.exchange,
    );
  },
});
