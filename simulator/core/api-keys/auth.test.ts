import { describe, expect, it, afterEach } from 'vitest';
import { createHarness, type Harness, TEST_API_KEY } from '../../test-support/harness.ts';
import { compileWhitelist, ipAllowed, whitelistEntryProblem } from './ip-whitelist.ts';
import { hashApiKey } from './api-key.ts';

let h: Harness;
afterEach(async () => h?.sim.close());
const DAY = 86_400_000;

describe('401 for every kind of bad credential', () => {
  it.each([
    ['missing', undefined, 'Missing Authorization header (expected: Bearer pk_...)'],
    ['not Bearer', 'Basic abc', 'Authorization header must use the Bearer scheme'],
    ['Bearer without token', 'Bearer ', 'Authorization header must use the Bearer scheme'],
    ['not pk_', 'Bearer sk_live_123', 'Malformed API key (expected a pk_ key)'],
    ['unknown', 'Bearer pk_unknown00000000', 'Invalid API key'],
    ['key with a trailing extra', `Bearer ${TEST_API_KEY}x`, 'Invalid API key'],
  ])('%s', async (_name, authorization, message) => {
    h = createHarness();
    const res = await h.request('GET', '/v1/payments', { key: null, headers: authorization === undefined ? {} : { authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message, error: 'Unauthorized' });
    expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
  });

  it('accepts the scheme case-insensitively', async () => {
    h = createHarness();
    expect((await h.request('GET', '/v1/payments', { key: null, headers: { authorization: `bearer ${TEST_API_KEY}` } })).status).toBe(200);
  });

  it('revoked and expired keys are 401', async () => {
    h = createHarness();
    const created = await h.request('POST', '/v1/auth/api-keys', { body: { name: 'temp', expiresInDays: 30 } });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect((await h.request('GET', '/v1/payments', { key })).status).toBe(200);
    await h.sim.clock.advance(30 * DAY);
    const expired = await h.request('GET', '/v1/payments', { key });
    expect(expired.body).toEqual({ statusCode: 401, message: 'API key has expired', error: 'Unauthorized' });

    const other = await h.request('POST', '/v1/auth/api-keys', { body: {} });
    const revoked = await h.request('DELETE', `/v1/auth/api-keys/${other.body.id}`);
    expect(revoked.body).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
    const denied = await h.request('GET', '/v1/payments', { key: other.body.key });
    expect(denied.body.message).toBe('API key has been revoked');
  });

  it('a control-made key with expiresAt in the past is 401 at once', async () => {
    h = createHarness();
    const res = await h.request('POST', '/control/v1/api-keys', { body: { expiresAt: '2020-01-01T00:00:00Z' } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('expired');
    expect((await h.request('GET', '/v1/payments', { key: res.body.key })).status).toBe(401);
  });
});

describe('IP whitelist', () => {
  it('validates entries', () => {
    for (const ok of ['10.0.0.1', '10.0.0.0/8', '0.0.0.0/0', '::1', '2001:db8::/32', '::ffff:10.0.0.1'])
      expect(whitelistEntryProblem(ok)).toBeUndefined();
    for (const bad of ['10.0.0', '10.0.0.0/33', '2001:db8::/129', 'localhost', '10.0.0.1/8/1', '10.0.0.0/08', 1])
      expect(whitelistEntryProblem(bad)).toBeDefined();
  });

  it('matches IPv4, IPv6, CIDR and IPv4-mapped addresses', () => {
    const list = compileWhitelist(['10.0.0.0/8', '2001:db8::/32', '192.168.1.7']);
    expect(ipAllowed(list, '10.20.30.40')).toBe(true);
    expect(ipAllowed(list, '::ffff:10.1.1.1')).toBe(true);
    expect(ipAllowed(list, '2001:db8::1')).toBe(true);
    expect(ipAllowed(list, '192.168.1.7')).toBe(true);
    expect(ipAllowed(list, '192.168.1.8')).toBe(false);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(null, '1.2.3.4')).toBe(true);
  });

  it('rejects callers outside the whitelist with 401', async () => {
    h = createHarness();
    const created = await h.request('POST', '/v1/auth/api-keys', { body: { ipWhitelist: ['10.0.0.0/8', '2001:db8::/32'] } });
    expect(created.body.ipWhitelist).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    const key = created.body.key as string;
    expect((await h.request('GET', '/v1/payments', { key, ip: '10.9.8.7' })).status).toBe(200);
    expect((await h.request('GET', '/v1/payments', { key, ip: '2001:db8::5' })).status).toBe(200);
    const outside = await h.request('GET', '/v1/payments', { key, ip: '192.168.0.1' });
    expect(outside.status).toBe(401);
    expect(outside.body.message).toBe("Client IP address is not in this API key's whitelist");
    expect((await h.request('GET', '/v1/payments', { key })).status).toBe(401); // in-process caller is 127.0.0.1
  });
});

describe('/v1/auth/api-keys', () => {
  it('creates a key shown once, stored only as a hash and prefix', async () => {
    h = createHarness();
    await h.sim.clock.advance(1000); // after the default key, so it lists first
    const res = await h.request('POST', '/v1/auth/api-keys', { body: { name: 'ci', expiresInDays: 365 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      prefix: res.body.key.slice(0, 11),
      ipWhitelist: null,
      expiresAt: '2027-11-21T10:00:01.000Z',
      revokedAt: null,
      lastUsedAt: null,
      status: 'active',
      createdAt: '2026-11-21T10:00:01.000Z',
      key: expect.stringMatching(/^pk_[0-9a-f]{48}$/),
    });
    const record = h.sim.keys.getOwned(h.sim.defaultMerchant.id, res.body.id);
    expect(record?.hash).toBe(hashApiKey(res.body.key));
    expect(JSON.stringify(record)).not.toContain(res.body.key);
    const list = await h.request('GET', '/v1/auth/api-keys');
    expect(list.body.data.map((k: { id: string }) => k.id)[0]).toBe(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect(list.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
    expect(list.body.data[1]).toMatchObject({ name: 'Default key', lastUsedAt: '2026-11-21T10:00:01.000Z' });
  });

  it.each([
    [{ expiresInDays: 29 }, ['expiresInDays']],
    [{ expiresInDays: 3651 }, ['expiresInDays']],
    [{ expiresInDays: 30.5 }, ['expiresInDays']],
    [{ ipWhitelist: [] }, ['ipWhitelist']],
    [{ ipWhitelist: ['1.2.3.4', 'nope'] }, ['ipWhitelist', '1']],
    [{ name: 'x'.repeat(101) }, ['name']],
    [{ expiresAt: '2030-01-01T00:00:00Z' }, ['expiresAt']],
  ])('rejects %j at %j', async (body, path) => {
    h = createHarness();
    const res = await h.request('POST', '/v1/auth/api-keys', { body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it('allows never-expiring keys and at most 10 active keys (409 beyond)', async () => {
    h = createHarness();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await h.request('POST', '/v1/auth/api-keys', { body: { expiresInDays: null } })).status);
    expect(statuses).toEqual([...Array(9).fill(201), 409]); // the default key is the 10th... plus 9 new
    const conflict = await h.request('POST', '/v1/auth/api-keys', { body: {} });
    expect(conflict.body).toEqual({ statusCode: 409, message: 'This merchant already has 10 active API keys', error: 'Conflict' });
    // Revoke one of the new keys, never the key this test authenticates with (all share one
    // createdAt on the frozen test clock, so list order among them is by id).
    const list = await h.request('GET', '/v1/auth/api-keys?limit=100');
    const other = list.body.data.find((k: { prefix: string }) => !h.sim.defaultApiKey.startsWith(k.prefix));
    expect((await h.request('DELETE', `/v1/auth/api-keys/${other.id}`)).status).toBe(200);
    expect((await h.request('POST', '/v1/auth/api-keys', { body: {} })).status).toBe(201);
  });

  it("isolates merchants: another merchant's key is 404 and invisible", async () => {
    h = createHarness();
    const other = await h.request('POST', '/control/v1/merchants', { body: { name: 'B' } });
    expect((await h.request('DELETE', `/v1/auth/api-keys/${other.body.apiKey.id}`)).status).toBe(404);
    const mine = await h.request('GET', '/v1/auth/api-keys');
    expect(mine.body.data.map((k: { id: string }) => k.id)).not.toContain(other.body.apiKey.id);
    expect((await h.request('GET', '/v1/payments', { key: other.body.apiKey.key })).status).toBe(200);
  });
});
