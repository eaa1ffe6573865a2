// Property test: thousands of malformed bodies, params and headers sent to create and list must
// each get a 4xx with the error shape — 400 validation failures with one entry per bad field.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, SELLER_A, TEST_API_KEY } from '../../test-support/harness.ts';
import { CREATE_FIELDS } from '../../core/payments/validate-create.ts';

let h: Harness;
let cases = 0;
beforeAll(() => {
  h = createHarness({ rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await h.sim.close();
  // The suite's own accounting: the brief asks for at least 2,000 malformed cases.
  expect(cases).toBeGreaterThanOrEqual(2000);
});

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 409: 'Conflict' };

function expectErrorShape(res: { status: number; body: any }, status: number): void {
  cases += 1;
  expect(res.status).toBe(status);
  expect(res.body.statusCode).toBe(status);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.error).toBe(REASONS[status]);
  if (status === 400 && res.body.message === 'Validation failed') {
    expect(Array.isArray(res.body.errors) && res.body.errors.length > 0).toBe(true);
    for (const e of res.body.errors) {
      expect(Array.isArray(e.path) && e.path.every((p: unknown) => typeof p === 'string')).toBe(true);
      expect(typeof e.message).toBe('string');
    }
    const keys = res.body.errors.map((e: { path: string[] }) => JSON.stringify(e.path));
    expect(new Set(keys).size).toBe(keys.length);
  }
}

// JSON-representable only: Infinity or undefined would serialise to null or vanish.
const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);
const notStringOrNull = notString.filter((v) => v !== null);
const badAmount = fc.oneof(
  notString,
  fc.string().filter((s) => !/^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/.test(s)),
  fc.bigInt({ min: 1_000_000_000_001n, max: 10n ** 30n }).map(String),
  fc.tuple(fc.nat(), fc.integer({ min: 100, max: 99_999 })).map(([a, b]) => `${a}.${b}`),
);
const badDate = fc.oneof(
  notString,
  fc.string(),
  fc.constantFrom('2026-11-21', '2026-11-21T10:00:00', '2026-02-30T10:00:00Z', '2000-01-01T00:00:00Z', '2099-01-01T00:00:00Z'),
);
const badElementList = <T>(bad: fc.Arbitrary<unknown>, good: T[]) =>
  fc.oneof(
    notString.filter((v) => !Array.isArray(v)),
    fc.constant([]),
    fc.tuple(fc.subarray(good), bad, fc.subarray(good)).map(([a, b, c]) => [...a, b, ...c]),
  );
const badSeller = fc.oneof(
  notString,
  fc.record({ address: fc.oneof(notString, fc.string()), amount: fc.constant('1') }),
  fc.record({ address: fc.constant(SELLER_A), amount: badAmount }),
  fc.record({ address: fc.constant(SELLER_A), amount: fc.constant('1'), extra: fc.jsonValue() }),
);

/** One definitely-invalid value per field; every mutation is invalid whatever the others are. */
const MUTATIONS: Record<string, fc.Arbitrary<unknown>> = {
  amount: badAmount,
  currency: fc.oneof(
    notString,
    fc.string().filter((s) => !/^(AED|ARS|BRL|EUR|GBP|IDR|ILS|JPY|MXN|NGN|PHP|THB|USD|VND)$/.test(s)),
  ),
  title: fc.oneof(notStringOrNull, fc.string({ minLength: 256, maxLength: 300 })),
  externalId: fc.oneof(
    notStringOrNull,
    fc.string().filter((s) => !/^[A-Za-z0-9._-]{1,36}$/.test(s)),
  ),
  acceptedChains: badElementList(
    fc.oneof(
      fc.integer().filter((n) => ![1, 42161, 8453, 137, 56].includes(n)),
      fc.string(),
    ),
    [1, 42161, 8453, 137, 56],
  ),
  acceptedTokens: badElementList(
    fc.string().filter((s) => s !== 'USDC' && s !== 'USDT'),
    ['USDC', 'USDT'],
  ),
  expiresAt: badDate,
  sellers: fc.oneof(
    notStringOrNull.filter((v) => !Array.isArray(v)),
    fc.constant([]),
    fc.array(badSeller, { minLength: 1, maxLength: 5 }),
    fc.constant(Array(6).fill({ address: SELLER_A, amount: '1' })),
  ),
  merchantAmount: badAmount,
};

const unknownField = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(CREATE_FIELDS as readonly string[]).includes(k));

const mutatedBody = fc
  .tuple(
    fc
      .subarray(Object.keys(MUTATIONS), { minLength: 0, maxLength: 3 })
      .chain((fields) => fc.tuple(...fields.map((f) => MUTATIONS[f]!.map((v) => [f, v] as const)))),
    fc.option(fc.tuple(unknownField, fc.jsonValue()), { freq: 3 }),
  )
  .filter(([mutations, extra]) => mutations.length > 0 || extra !== null)
  .map(([mutations, extra]) => {
    const body: Record<string, unknown> = { amount: '100', currency: 'USD' };
    for (const [field, value] of mutations) body[field] = value;
    const expected = new Set(mutations.map(([f]) => f));
    if (extra) {
      // defineProperty: a plain assignment to "__proto__" would set the prototype, not a key.
      Object.defineProperty(body, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
      expected.add(extra[0]);
    }
    return { body, expected };
  });

describe('malformed requests to create and list', () => {
  it('every invalid field of a create body yields exactly its own 400 entry', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBody, async ({ body, expected }) => {
        const res = await h.request('POST', '/v1/payments', { body });
        expectErrorShape(res, 400);
        const heads = new Set(res.body.errors.map((e: { path: string[] }) => e.path[0]));
        expect(heads).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('bodies that are not JSON objects are 400 at path []', async () => {
    const raw = fc.oneof(
      fc.string(),
      fc.json().filter((j) => !j.trim().startsWith('{')),
      fc.constantFrom('', '{', '{"amount":', 'null', '[]', '"x"', '\u0000'),
    );
    await fc.assert(
      fc.asyncProperty(raw, async (text) => {
        const res = await h.request('POST', '/v1/payments', { raw: text, headers: { 'content-type': 'application/json' } });
        expectErrorShape(res, 400);
        if (!text.trim().startsWith('{')) expect(res.body.errors).toEqual([{ path: [], message: expect.any(String) }]);
      }),
      { numRuns: 300 },
    );
  });

  it('wrong content types are 400 and malformed Authorization headers are 401', async () => {
    const contentType = fc
      .oneof(
        fc.string(),
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/jsonx', 'json'),
      )
      .filter((t) => !/^application\/json\s*(;.*)?$/i.test(t) && /^[\t\x20-\x7e]*$/.test(t) && t.trim() === t);
    await fc.assert(
      fc.asyncProperty(contentType, async (type) => {
        const res = await h.request('POST', '/v1/payments', {
          raw: '{"amount":"100","currency":"USD"}',
          headers: type ? { 'content-type': type } : {},
        });
        expectErrorShape(res, 400);
      }),
      { numRuns: 200 },
    );
    const authorization = fc
      .oneof(
        fc.string(),
        fc.string().map((s) => `Bearer ${s}`),
        fc.string().map((s) => `Bearer pk_${s}`),
        fc.constantFrom(`Basic ${TEST_API_KEY}`, `Bearer  ${TEST_API_KEY} x`, TEST_API_KEY),
      )
      .filter((a) => /^[\t\x20-\x7e]*$/.test(a) && a.trim() === a && !new RegExp(`^bearer +${TEST_API_KEY}$`, 'i').test(a));
    await fc.assert(
      fc.asyncProperty(authorization, fc.boolean(), async (auth, list) => {
        const res = list
          ? await h.request('GET', '/v1/payments', { key: null, headers: auth ? { authorization: auth } : {} })
          : await h.request('POST', '/v1/payments', {
              key: null,
              body: { amount: '100', currency: 'USD' },
              headers: auth ? { authorization: auth } : {},
            });
        expectErrorShape(res, 401);
      }),
      { numRuns: 200 },
    );
  });

  it('malformed list parameters are 400 at their own path', async () => {
    const badLimit = fc
      .oneof(
        fc.string(),
        fc.integer({ min: -1000, max: 0 }).map(String),
        fc.integer({ min: 101, max: 10 ** 9 }).map(String),
        fc.constantFrom('1.0', '01', '1e2', ' 5', '0x10'),
      )
      .filter((s) => !/^[1-9][0-9]{0,2}$/.test(s) || Number(s) > 100);
    const badStatus = fc.string().filter((s) => !['ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'].includes(s));
    const badCursor = fc.oneof(fc.uuid(), fc.string({ minLength: 1 }));
    const param = fc.oneof(
      badLimit.map((v) => ['limit', v] as const),
      badStatus.map((v) => ['status', v] as const),
      badCursor.map((v) => ['cursor', v] as const),
      fc
        .string()
        .filter((s) => !/^[A-Za-z0-9._-]{1,36}$/.test(s))
        .map((v) => ['externalId', v] as const),
    );
    await fc.assert(
      fc.asyncProperty(param, async ([name, value]) => {
        const res = await h.request('GET', `/v1/payments?${name}=${encodeURIComponent(value)}`);
        expectErrorShape(res, 400);
        expect(res.body.errors).toEqual([{ path: [name], message: expect.any(String) }]);
      }),
      { numRuns: 400 },
    );
  });

  it('unknown payment ids are 404 for retrieve and cancel', async () => {
    const id = fc.oneof(
      fc.uuid(),
      fc.string({ minLength: 1 }).filter((s) => !s.includes('/') && s !== '.' && s !== '..'),
    );
    await fc.assert(
      fc.asyncProperty(id, fc.constantFrom('GET', 'DELETE'), async (raw, method) => {
        const res = await h.request(method, `/v1/payments/${encodeURIComponent(raw)}`);
        expectErrorShape(res, 404);
      }),
      { numRuns: 200 },
    );
  });
});
