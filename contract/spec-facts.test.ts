// Proves that every fact transcribed from the specification's tables (fixtures/spec-facts.json)
// is encoded in openapi.yaml with the right type and constraint.
import { beforeAll, describe, expect, it } from 'vitest';
import facts from '../fixtures/spec-facts.json' with { type: 'json' };
import chainsFixture from '../fixtures/chains.json' with { type: 'json' };
import currenciesFixture from '../fixtures/currencies.json' with { type: 'json' };
import { admittedTypes, keywordValue, keywordValues, propertiesOf, requiredOf, type Schema } from './schema-introspection.ts';
import { collectExtensionKeys, createContractAjv } from './schema-ajv.ts';
import { loadContract, type Contract } from './validator.ts';

// A dereferenced OpenAPI document, navigated freely; the assertions check what is there.
type Doc = Record<string, any>;

let contract: Contract;
let doc: Doc;
const schema = (name: string): Schema => doc['components']['schemas'][name] as Schema;
const operation = (method: string, path: string): Doc => doc['paths'][path]?.[method.toLowerCase()] as Doc;
const allOperations = (): { method: string; path: string; op: Doc }[] =>
  Object.entries(doc['paths'] as Doc).flatMap(([path, item]) =>
    Object.entries(item as Doc)
      .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Doc })),
  );
const typesOf = (s: unknown): string[] => [...admittedTypes(s)].sort();
const specType = (type: string, nullable: boolean): string[] => [type, ...(nullable ? ['null'] : [])].sort();
let ajv: ReturnType<typeof createContractAjv>;
const matches = (s: unknown, value: unknown): boolean => ajv.validate(s as object, value) as boolean;
const isoSeconds = (duration: string): number => {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(duration);
  if (!m) throw new Error(`unsupported duration ${duration}`);
  return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
};

beforeAll(async () => {
  contract = await loadContract();
  doc = contract.document as Doc;
  ajv = createContractAjv(collectExtensionKeys(doc));
});

describe('spec facts: endpoints, versioning, auth', () => {
  it('documents exactly the endpoints of the specification, all under /v1', () => {
    const documented = allOperations()
      .map(({ method, path }) => `${method} ${path}`)
      .sort();
    expect(documented).toEqual(facts.endpoints.map((e) => `${e.method} ${e.path}`).sort());
    for (const path of Object.keys(doc['paths'])) expect(path.startsWith(`${facts.versionPrefix}/`)).toBe(true);
  });

  it('applies Bearer auth globally', () => {
    expect(doc['security']).toEqual([{ bearerAuth: [] }]);
    expect(doc['components']['securitySchemes']['bearerAuth']).toMatchObject({ type: 'http', scheme: facts.auth.scheme });
    expect(doc['components']['securitySchemes']['bearerAuth']['bearerFormat']).toContain(facts.auth.keyPrefix);
  });

  it('paginates the cursor-paginated endpoints with limit default 20, maximum 100', () => {
    for (const { method, path } of facts.cursorPaginatedEndpoints) {
      const params = operation(method, path)['parameters'] as Doc[];
      const limit = params.find((p) => p['name'] === 'limit' && p['in'] === 'query');
      const cursor = params.find((p) => p['name'] === 'cursor' && p['in'] === 'query');
      expect(cursor, `${path} cursor`).toBeDefined();
      expect(limit?.['schema']).toMatchObject({
        default: facts.limits.listLimitDefault,
        maximum: facts.limits.listLimitMaximum,
        type: 'integer',
      });
      const ok = operation(method, path)['responses']['200']['content']['application/json']['schema'];
      for (const field of facts.paginationFields) expect(requiredOf(ok), `${path} ${field}`).toContain(field);
      expect(typesOf(propertiesOf(ok)['hasMore'])).toEqual(['boolean']);
    }
  });

  it('serves the export as CSV', () => {
    for (const { method, path } of facts.csvEndpoints) {
      expect(Object.keys(operation(method, path)['responses']['200']['content'])).toEqual(['text/csv']);
    }
  });
});

describe('spec facts: enumerations', () => {
  it('chain IDs and the tokens of each chain', () => {
    expect(keywordValue(schema('ChainId'), 'enum')).toEqual(facts.chains.map((c) => c.chainId));
    expect(keywordValue(schema('Token'), 'enum')).toEqual(facts.tokens);
    const table = schema('ChainId')['x-chain-tokens'] as Record<string, string[]>;
    for (const chain of facts.chains) expect(table[String(chain.chainId)], chain.name).toEqual(chain.tokens);
    // fixtures/chains.json (used by the simulator) agrees with the specification's table.
    for (const chain of facts.chains) {
      const fixture = chainsFixture.chains.find((c) => c.chainId === chain.chainId);
      expect(Object.keys(fixture?.tokens ?? {}).sort(), chain.name).toEqual([...chain.tokens].sort());
    }
  });

  it('the 14 currencies and the zero-decimal ones', () => {
    expect([...(keywordValue(schema('Currency'), 'enum') as string[])].sort()).toEqual([...facts.currencies].sort());
    expect(keywordValue(schema('Currency'), 'enum')).toHaveLength(14);
    expect(schema('Currency')['x-zero-decimal']).toEqual(facts.zeroDecimalCurrencies);
    expect(currenciesFixture.currencies.map((c) => c.code).sort()).toEqual([...facts.currencies].sort());
    expect(
      currenciesFixture.currencies
        .filter((c) => c.minorUnits === 0)
        .map((c) => c.code)
        .sort(),
    ).toEqual([...facts.zeroDecimalCurrencies].sort());
    // The assumed minimums in the contract are the fixture's.
    const minimums = schema('PaymentCreateRequest')['x-currency-minimums'] as Record<string, string>;
    for (const c of currenciesFixture.currencies) expect(minimums[c.code], c.code).toBe(c.minimum);
  });

  it('exactly the six payment statuses', () => {
    expect(keywordValue(schema('PaymentStatus'), 'enum')).toEqual(facts.paymentStatuses);
    expect(keywordValue(propertiesOf(schema('PaymentCreateView'))['status'], 'const')).toBe(facts.initialStatus);
  });

  it('exactly the 13 event types, each with a webhook', () => {
    expect(keywordValue(schema('WebhookEventType'), 'enum')).toEqual(facts.events);
    expect(Object.keys(doc['webhooks']).sort()).toEqual([...facts.events].sort());
  });
});

describe('spec facts: Payment fields', () => {
  it('the retrieve view has exactly the specified fields, closed', () => {
    const payment = schema('Payment');
    expect(Object.keys(propertiesOf(payment)).sort()).toEqual(facts.paymentFields.map((f) => f.name).sort());
    expect(payment['additionalProperties']).toBe(false);
  });

  it.each(facts.paymentFields.map((f) => [f.name, f] as const))(
    '%s has the specified type, nullability, format and presence',
    (name, field) => {
      const payment = schema('Payment');
      const property = propertiesOf(payment)[name];
      expect(typesOf(property)).toEqual(specType(field.type, field.nullable));
      if ('format' in field) expect(keywordValue(property, 'format')).toBe(field.format);
      if ('items' in field) expect(typesOf((property as Schema)['items'])).toEqual([field.items]);
      const assumedPresence = (payment['x-assumed-required'] as string[]).includes(name);
      expect(requiredOf(payment)).toContain(name);
      // "always" and "in the retrieve view" are documented presence; anything else is our choice.
      expect(assumedPresence).toBe(!['always', 'in the retrieve view'].includes(field.presence));
    },
  );

  it('the create view has exactly the specified 14 fields, closed, with the Payment types', () => {
    const view = schema('PaymentCreateView');
    const properties = propertiesOf(view);
    expect(Object.keys(properties).sort()).toEqual([...facts.createViewFields].sort());
    expect(view['additionalProperties']).toBe(false);
    expect([...(view['x-assumed-required'] as string[])].sort()).toEqual([...facts.createViewMayBeAbsentOrNull].sort());
    const payment = propertiesOf(schema('Payment'));
    for (const name of facts.createViewFields) {
      if (name !== 'status') expect(typesOf(properties[name]), name).toEqual(typesOf(payment[name]));
    }
  });

  it('seller, failure object and pagination fields', () => {
    const seller = propertiesOf(schema('Seller'));
    for (const f of facts.sellerFields) expect(typesOf(seller[f.name]), f.name).toEqual([f.type]);
    expect([...requiredOf(schema('PaymentFailure'))].sort()).toEqual([...facts.failureObjectFields].sort());
    for (const list of ['PaymentList', 'WebhookDeliveryList', 'ApiKeyList', 'TransactionList']) {
      for (const f of facts.paginationFields) expect(requiredOf(schema(list)), `${list}.${f}`).toContain(f);
    }
  });
});

describe('spec facts: create request and limits', () => {
  it('the create request has the specified fields, types and required set', () => {
    const request = schema('PaymentCreateRequest');
    const properties = propertiesOf(request);
    expect(Object.keys(properties).sort()).toEqual(facts.createRequestFields.map((f) => f.name).sort());
    expect([...requiredOf(request)].sort()).toEqual(
      facts.createRequestFields
        .filter((f) => f.required)
        .map((f) => f.name)
        .sort(),
    );
    expect(request['additionalProperties']).toBe(false);
    for (const f of facts.createRequestFields) {
      expect(admittedTypes(properties[f.name]), f.name).toContain(f.type);
      if ('format' in f) expect(keywordValue(properties[f.name], 'format')).toBe(f.format);
    }
    expect(propertiesOf(properties['acceptedChains']!['items'])).toEqual({});
    expect(keywordValue(properties['acceptedChains']!['items'], 'enum')).toEqual(facts.chains.map((c) => c.chainId));
    expect(keywordValue(properties['acceptedTokens']!['items'], 'enum')).toEqual(facts.tokens);
    expect(keywordValue(properties['currency'], 'enum')).toEqual(facts.currencies);
  });

  it('encodes every limit of the limits table', () => {
    const request = propertiesOf(schema('PaymentCreateRequest'));
    const payment = propertiesOf(schema('Payment'));
    expect(request['title']!['maxLength']).toBe(facts.limits.titleMaxLength);
    expect(payment['title']!['maxLength']).toBe(facts.limits.titleMaxLength);
    expect(request['externalId']!['maxLength']).toBe(facts.limits.externalIdMaxLength);
    expect(request['externalId']!['pattern']).toBe('^[A-Za-z0-9._-]+$');
    expect(request['sellers']!['maxItems']).toBe(facts.limits.sellersMaxItems);
    expect(payment['sellers']!['maxItems']).toBe(facts.limits.sellersMaxItems);
    expect(request['amount']!['x-maximum']).toBe(facts.limits.amountMaximum);
    expect(request['merchantAmount']!['x-maximum']).toBe(facts.limits.amountMaximum);
    expect(request['expiresAt']).toMatchObject({
      'x-min-from-now': facts.limits.expiresAtMinFromNow,
      'x-max-from-now': facts.limits.expiresAtMaxFromNow,
      'x-default-from-now': facts.limits.expiresAtDefaultFromNow,
    });
    const limit = (doc['components']['parameters']['Limit'] as Doc)['schema'];
    expect(limit).toMatchObject({ minimum: 1, maximum: facts.limits.listLimitMaximum, default: facts.limits.listLimitDefault });
    const retries = doc['components']['responses']['WebhookNotAcknowledged']['x-retry-schedule'] as unknown[];
    expect(retries).toHaveLength(facts.limits.webhookAttempts);
    expect(doc['components']['responses']['WebhookAcknowledged']['description']).toContain(
      `${facts.limits.webhookResponseTimeoutSeconds} seconds`,
    );
    expect(doc['components']['parameters']['ServiceSignature']['description']).toContain(
      `${facts.limits.webhookSignatureToleranceSeconds} seconds`,
    );
    expect(schema('ApiKeyCreateRequest')['properties']).toMatchObject({
      expiresInDays: { minimum: facts.limits.apiKeyExpiryMinimumDays, type: ['integer', 'null'] },
    });
  });

  it('the amount grammar accepts the documented forms and rejects the others', () => {
    const amount = propertiesOf(schema('PaymentCreateRequest'))['amount'];
    for (const value of facts.amountExamples.valid) expect(matches(amount, value), value).toBe(true);
    for (const value of facts.amountExamples.invalid) expect(matches(amount, value), value).toBe(false);
    expect(matches(amount, facts.limits.amountMaximum)).toBe(true);
    expect(matches(amount, `${facts.limits.amountMaximum}.01`)).toBe(false);
  });

  it('zero-decimal currencies reject fractional amounts', () => {
    const request = schema('PaymentCreateRequest');
    for (const code of facts.zeroDecimalCurrencies) {
      expect(
        contract.validateRequest('createPayment', { body: { amount: '20000.5', currency: code } }).some((v) => v.level === 'documented'),
        code,
      ).toBe(true);
      expect(contract.validateRequest('createPayment', { body: { amount: '200000', currency: code } }), code).toEqual([]);
    }
    expect(keywordValues(request, 'if').length).toBeGreaterThan(0);
  });
});

describe('spec facts: errors and headers', () => {
  it('lists each documented error status on its operations', () => {
    const operations = allOperations();
    for (const row of facts.errors) {
      if (typeof row.operations === 'string') expect(row.operations).toBe('all');
      const targets =
        typeof row.operations === 'string' ? operations : row.operations.map((o) => ({ ...o, op: operation(o.method, o.path) }));
      for (const { method, path, op } of targets)
        expect(Object.keys(op['responses']), `${row.status} on ${method} ${path}`).toContain(String(row.status));
    }
    for (const { method, path, statuses } of facts.operationErrors) {
      const errors = Object.keys(operation(method, path)['responses']).filter((s) => Number(s) >= 400);
      expect(errors, `${method} ${path}`).toEqual(statuses.map(String));
    }
    for (const { method, path, status } of facts.successStatuses)
      expect(Object.keys(operation(method, path)['responses'])).toContain(String(status));
  });

  it('shapes error bodies as specified, with errors[] on the create validation failure', () => {
    const body = propertiesOf(schema('ErrorBody'));
    for (const f of facts.errorBodyFields) expect(typesOf(body[f.name]), f.name).toEqual([f.type]);
    expect([...requiredOf(schema('ErrorBody'))].sort()).toEqual(facts.errorBodyFields.map((f) => f.name).sort());
    const validation = operation('POST', '/v1/payments')['responses']['400']['content']['application/json']['schema'];
    expect(requiredOf(validation)).toContain('errors');
    expect(keywordValues(validation, 'properties').some((p) => (p as Doc)['message']?.['const'] === facts.validationMessage)).toBe(true);
    const item = propertiesOf(schema('FieldError'));
    for (const f of facts.validationErrorItemFields) expect(typesOf(item[f.name]), f.name).toEqual([f.type]);
    expect(typesOf(item['path']!['items'])).toEqual(['string']);
  });

  it('puts the three rate-limit headers, required, on every response of every operation; Retry-After on 429', () => {
    for (const { method, path, op } of allOperations()) {
      for (const [status, response] of Object.entries(op['responses'] as Doc)) {
        const headers = (response as Doc)['headers'] ?? {};
        for (const name of facts.rateLimitHeaders) {
          expect(headers[name]?.['required'], `${method} ${path} ${status} ${name}`).toBe(true);
          expect(typesOf(headers[name]?.['schema'])).toEqual(['number']);
        }
        if (status === '429') expect(headers['Retry-After'], `${method} ${path} 429 Retry-After`).toBeDefined();
      }
    }
  });
});

describe('spec facts: events, signature and retries', () => {
  it('gives each event its payload: data.paymentId or data.payoutId, data.externalId; test has no data', () => {
    for (const event of facts.events) {
      const post = doc['webhooks'][event]['post'] as Doc;
      const payload = post['requestBody']['content']['application/json']['schema'];
      const properties = propertiesOf(payload);
      expect(keywordValues(properties['event'], 'const').concat(keywordValues(properties['event'], 'enum').flat()), event).toContain(event);
      expect(typesOf(properties['timestamp'])).toEqual(['string']);
      expect(keywordValue(properties['timestamp'], 'format')).toBe('date-time');
      if (event === 'test') {
        expect(Object.keys(properties).sort()).toEqual([...facts.testEventFields].sort());
        continue;
      }
      const data = propertiesOf(properties['data']);
      const idField = event.startsWith('payout.') ? 'payoutId' : 'paymentId';
      expect(Object.keys(data).sort(), event).toEqual([idField, 'externalId'].sort());
      expect(keywordValue(data[idField], 'format')).toBe('uuid');
      expect(admittedTypes(data['externalId'])).toContain('string');
    }
  });

  it('signs every delivery with the two headers in the specified format', () => {
    for (const event of facts.events) {
      const params = doc['webhooks'][event]['post']['parameters'] as Doc[];
      for (const header of facts.signatureHeaders) {
        const param = params.find((p) => p['in'] === 'header' && p['name'] === header.name);
        expect(param?.['required'], `${event} ${header.name}`).toBe(true);
      }
    }
    const signature = doc['components']['parameters']['ServiceSignature']['schema'];
    expect(matches(signature, `t=1795255500,v1=${'a1'.repeat(32)}`)).toBe(true);
    for (const bad of [`v1=${'a'.repeat(64)}`, 't=1795255500', `t=1,v1=${'A'.repeat(64)}`, `t=1,v1=${'a'.repeat(63)}`])
      expect(matches(signature, bad), bad).toBe(false);
    expect(typesOf(doc['components']['parameters']['ServiceTimestamp']['schema'])).toEqual(['number']);
    expect(doc['components']['parameters']['ServiceSignature']['description']).toContain('HMAC-SHA256');
  });

  it('states the retry schedule row by row', () => {
    const schedule = doc['components']['responses']['WebhookNotAcknowledged']['x-retry-schedule'] as {
      attempt: number;
      delay: string;
      cumulative: string;
    }[];
    expect(
      schedule.map((r) => ({ attempt: r.attempt, delaySeconds: isoSeconds(r.delay), cumulativeSeconds: isoSeconds(r.cumulative) })),
    ).toEqual(facts.retrySchedule);
  });

  it('knows every transition state and event', () => {
    const statuses = keywordValue(schema('PaymentStatus'), 'enum') as string[];
    for (const t of facts.transitions) {
      if (t.from) expect(statuses).toContain(t.from);
      expect(statuses).toContain(t.to);
      if (t.event) expect(Object.keys(doc['webhooks'])).toContain(t.event);
    }
  });
});
