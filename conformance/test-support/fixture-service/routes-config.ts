// Webhook configuration and API keys (spec §4: "Request and response payloads: not shown"): the field names, the
// secret's format, the key body and the key limit are the fixture's choices.
import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { deliveryRecord, emit } from './deliveries.ts';
import { iso, jsonBody, problem, validation, type Env } from './http.ts';
import { listPage, UUID } from './routes-payments.ts';
import { newKey, type Endpoint, type FixtureState, type KeyRecord } from './state.ts';

const DAY = 86_400_000;
const CIDR = /^(\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?$|^[0-9a-fA-F:]+(\/\d{1,3})?$/;

function newSecret(state: FixtureState): string {
  const hex = randomBytes(32).toString('hex');
  return state.choices.webhookSecretPrefix ? `whsec_${hex}` : hex;
}

function endpointRecord(state: FixtureState, e: Endpoint, withSecret: boolean): Record<string, unknown> {
  const { webhookUrlField, webhookSecretField } = state.choices;
  return {
    id: e.id,
    [webhookUrlField]: e.url,
    enabled: e.enabled,
    secretLast4: e.secret.slice(-4),
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
    ...(withSecret ? { [webhookSecretField]: e.secret } : {}),
  };
}

function validUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length > 2048 || /\s/.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.hostname !== '' &&
      parsed.username === '' &&
      parsed.password === ''
    );
  } catch {
    return false;
  }
}

export function webhookRoutes(): Hono<Env> {
  const app = new Hono<Env>();
  const mine = (c: import('hono').Context<Env>) => c.get('state').endpoints.get(c.get('key').merchantId);
  app.get('/', (c) => {
    const endpoint = mine(c);
    return endpoint ? c.json(endpointRecord(c.get('state'), endpoint, false)) : problem(c, 404, 'No webhook endpoint is configured');
  });
  app.post('/', async (c) => {
    const state = c.get('state');
    const body = (await jsonBody(c)) as Record<string, unknown> | undefined;
    const url = body?.[state.choices.webhookUrlField];
    if (!validUrl(url)) return validation(c, [{ path: [state.choices.webhookUrlField], message: 'must be an http(s) URL' }]);
    if (mine(c)) return problem(c, 409, 'A webhook endpoint is already configured');
    const now = state.now();
    const endpoint: Endpoint = {
      id: randomUUID(),
      merchantId: c.get('key').merchantId,
      url,
      enabled: body?.enabled !== false,
      secret: newSecret(state),
      createdAt: now,
      updatedAt: now,
    };
    state.endpoints.set(endpoint.merchantId, endpoint);
    return c.json(endpointRecord(state, endpoint, true), 201);
  });
  app.put('/', async (c) => {
    const state = c.get('state');
    const endpoint = mine(c);
    if (!endpoint) return problem(c, 404, 'No webhook endpoint is configured');
    const body = ((await jsonBody(c)) ?? {}) as Record<string, unknown>;
    const url = body[state.choices.webhookUrlField];
    if (url === undefined && body.enabled === undefined) return validation(c, [{ path: [], message: 'give the URL or enabled' }]);
    if (url !== undefined && !validUrl(url))
      return validation(c, [{ path: [state.choices.webhookUrlField], message: 'must be an http(s) URL' }]);
    if (url !== undefined) endpoint.url = url as string;
    if (typeof body.enabled === 'boolean') endpoint.enabled = body.enabled;
    endpoint.updatedAt = state.now();
    return c.json(endpointRecord(state, endpoint, false));
  });
  app.post('/regenerate-secret', (c) => {
    const state = c.get('state');
    const endpoint = mine(c);
    if (!endpoint) return problem(c, 404, 'No webhook endpoint is configured');
    if (!state.has('rotation-keeps-secret')) endpoint.secret = newSecret(state);
    endpoint.updatedAt = state.now();
    return c.json(endpointRecord(state, endpoint, true));
  });
  app.post('/test', (c) => {
    const state = c.get('state');
    if (!state.choices.testEventWithKey) return problem(c, 403, 'The test event is a dashboard action');
    const endpoint = mine(c);
    if (!endpoint) return problem(c, 404, 'No webhook endpoint is configured');
    if (!endpoint.enabled) return problem(c, 409, 'The webhook endpoint is disabled');
    const delivery = emit(state, endpoint.merchantId, 'test', null);
    return c.json(delivery ? deliveryRecord(delivery) : {}, 202);
  });
  app.get('/deliveries', (c) => {
    const state = c.get('state');
    const paymentId = c.req.query('paymentId');
    if (paymentId !== undefined && !UUID.test(paymentId)) return validation(c, [{ path: ['paymentId'], message: 'must be a UUID' }]);
    const event = c.req.query('event');
    const status = c.req.query('status');
    const all = state.deliveries
      .filter(
        (d) =>
          d.merchantId === c.get('key').merchantId &&
          (!paymentId || d.paymentId === paymentId) &&
          (!event || d.event === event) &&
          (!status || d.status === status),
      )
      .map((d) => ({ ...d, createdAt: d.createdAt }));
    return listPage(c, all, (d) => deliveryRecord(d));
  });
  return app;
}

function keyRecord(state: FixtureState, k: KeyRecord): Record<string, unknown> {
  const now = state.now();
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    ipWhitelist: k.ipWhitelist,
    [state.choices.keyRecordExpiryField]: iso(k.expiresAt),
    revokedAt: iso(k.revokedAt),
    lastUsedAt: null,
    status: k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt <= now ? 'expired' : 'active',
    createdAt: iso(k.createdAt),
  };
}

export function keyRoutes(): Hono<Env> {
  const app = new Hono<Env>();
  app.get('/', (c) => {
    const state = c.get('state');
    const all = [...state.keys.values()].filter((k) => k.merchantId === c.get('key').merchantId);
    return listPage(c, all, (k) => keyRecord(state, k));
  });
  app.post('/', async (c) => {
    const state = c.get('state');
    const body = ((await jsonBody(c)) ?? {}) as Record<string, unknown>;
    const { keyExpiryField, keyBodyLenient } = state.choices;
    const known = ['name', 'ipWhitelist', keyExpiryField];
    const unknown = Object.keys(body).filter((k) => !known.includes(k));
    if (unknown.length && !keyBodyLenient)
      return validation(
        c,
        unknown.map((k) => ({ path: [k], message: 'unknown field' })),
      );
    const now = state.now();
    let expiresAt: number | null = null;
    const expiry = body[keyExpiryField];
    if (expiry !== undefined && expiry !== null) {
      expiresAt =
        keyExpiryField === 'expiresAt'
          ? typeof expiry === 'string'
            ? Date.parse(expiry)
            : NaN
          : typeof expiry === 'number'
            ? now + expiry * DAY
            : NaN;
      if (!Number.isFinite(expiresAt) || expiresAt < now + 30 * DAY - 60_000)
        return validation(c, [{ path: [keyExpiryField], message: 'the expiry is 30 days to never' }]);
    }
    const whitelist = body.ipWhitelist;
    if (
      whitelist !== undefined &&
      whitelist !== null &&
      (!Array.isArray(whitelist) || whitelist.length === 0 || !whitelist.every((e) => typeof e === 'string' && CIDR.test(e)))
    ) {
      return validation(c, [{ path: ['ipWhitelist'], message: 'must list addresses or CIDR blocks' }]);
    }
    const merchantId = c.get('key').merchantId;
    if (state.activeKeys(merchantId).length >= state.choices.keyLimit)
      return problem(c, state.has('key-limit-400') ? 400 : 409, 'API key limit reached');
    const key = newKey();
    const record = state.addKey(merchantId, key, {
      name: typeof body.name === 'string' ? body.name : null,
      ipWhitelist: (whitelist as string[] | undefined) ?? null,
      expiresAt,
    });
    return c.json({ ...keyRecord(state, record), [state.choices.keySecretField]: key }, 201);
  });
  app.delete('/:id', (c) => {
    const state = c.get('state');
    const record = state.keys.get(c.req.param('id'));
    if (!record || record.merchantId !== c.get('key').merchantId) return problem(c, 404, 'API key not found');
    record.revokedAt ??= state.now();
    return c.json(keyRecord(state, record));
  });
  return app;
}
