// /v1/auth/api-keys: list, create (key shown once), revoke.
import { Hono } from 'hono';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import type { AppEnv } from '../http/context.ts';
import { conflict, notFound, validationError } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { envelope, parseListQuery } from '../http/list-query.ts';
import { MESSAGES } from '../http/messages.ts';
import { Problems } from '../../core/validation/problems.ts';
import type { ApiKeyList, ApiKeyWithSecret } from '@stablepay/contract/types';
import { apiKeyView } from '../../core/api-keys/api-key.ts';
import type { ApiKeyStore } from '../../core/api-keys/api-key-store.ts';
import { MAX_ACTIVE_KEYS } from '../../core/api-keys/api-key-store.ts';
import { validateApiKeyInput } from '../../core/api-keys/validate-api-key.ts';

export function apiKeyRoutes({ keys, clock }: { keys: ApiKeyStore; clock: VirtualClock }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const problems = new Problems();
    const { cursor, limit } = parseListQuery(c, problems);
    problems.throwIfAny();
    const page = keys.list(c.get('merchantId'), cursor, limit);
    if (!page) throw validationError([{ path: ['cursor'], message: 'cursor is not the id of one of your API keys' }]);
    const now = clock.now();
    return c.json(
      envelope(
        page.items.map((k) => apiKeyView(k, now)),
        page.hasMore,
      ) satisfies ApiKeyList,
      200,
    );
  });

  app.post('/', async (c) => {
    const merchantId = c.get('merchantId');
    const now = clock.now();
    const input = validateApiKeyInput(await readJsonBody(c), now);
    // Count and create in one synchronous step: concurrent creates cannot overshoot the limit.
    if (keys.countActive(merchantId, now) >= MAX_ACTIVE_KEYS) throw conflict(MESSAGES.apiKeyLimit(MAX_ACTIVE_KEYS));
    const { record, key } = keys.create(merchantId, input, now);
    return c.json({ ...apiKeyView(record, now), key } satisfies ApiKeyWithSecret, 201);
  });

  app.delete('/:id', (c) => {
    const record = keys.getOwned(c.get('merchantId'), c.req.param('id'));
    if (!record) throw notFound('API key');
    const now = clock.now();
    return c.json(apiKeyView(keys.revoke(record, now), now), 200);
  });

  return app;
}
