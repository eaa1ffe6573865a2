// The contract validator finds the operation, and flags undocumented statuses, wrong content
// types, missing or bad headers and invalid bodies, each with its level and requirement IDs.
import { beforeAll, describe, expect, it } from 'vitest';
import { compareDecimals } from './decimal-compare.ts';
import { PathMatcher, pathnameOf } from './path-matcher.ts';
import { formatViolations, loadContract, type Contract, type Violation } from './validator.ts';

let service: Contract;
let control: Contract;

type Json = Record<string, unknown>;
const example = (name: string): Json =>
  structuredClone((service.document['components'] as Json & { examples: Record<string, { value: Json }> }).examples[name]!.value);

const rateLimited = { 'X-RateLimit-Limit': '6000', 'X-RateLimit-Remaining': '5999', 'X-RateLimit-Reset': '1795255260' };
const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8', ...rateLimited };
const kinds = (violations: Violation[]): string[] => violations.map((v) => v.kind);

beforeAll(async () => {
  [service, control] = await Promise.all([loadContract(), loadContract('control')]);
});

describe('loadContract', () => {
  it('loads each document once and indexes its operations and webhooks', async () => {
    expect(await loadContract()).toBe(service);
    expect(service.operations).toHaveLength(18);
    expect(service.webhookEvents).toHaveLength(13);
    expect(control.operations.length).toBeGreaterThanOrEqual(19);
  });
});

describe('findOperation', () => {
  it('matches concrete paths to templates and ignores query strings and origins', () => {
    expect(service.findOperation('get', '/v1/payments/abc?expand=1')).toEqual({
      operationId: 'getPayment',
      method: 'get',
      pathTemplate: '/v1/payments/{id}',
      params: { id: 'abc' },
    });
    expect(service.findOperation('GET', 'http://localhost:4000/v1/payments?limit=5')?.operationId).toBe('listPayments');
    expect(service.findOperation('POST', '/v1/webhooks/regenerate-secret')?.operationId).toBe('regenerateWebhookSecret');
    expect(service.findOperation('POST', '/v1/web3/8453')?.params).toEqual({ chainId: '8453' });
    expect(service.findOperation('PATCH', '/v1/payments/abc')).toBeUndefined();
    expect(service.findOperation('GET', '/v2/payments')).toBeUndefined();
  });

  it('strips the control API base path', () => {
    expect(control.findOperation('POST', '/control/v1/clock/advance')?.operationId).toBe('advanceClock');
    expect(control.findOperation('POST', '/clock/advance')?.operationId).toBe('advanceClock');
    expect(control.findOperation('POST', 'http://localhost:4000/control/v1/payments/p1/pay')?.params).toEqual({ id: 'p1' });
  });
});

describe('validateResponse', () => {
  const get = (body: unknown, status = 200, headers: Record<string, string> = jsonHeaders) =>
    service.validateResponse({ method: 'GET', path: '/v1/payments/5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b', status, headers, body });

  it('passes a valid payment (parsed or raw JSON)', () => {
    const payment = example('PaymentSuccessful');
    expect(get(payment), formatViolations(get(payment))).toEqual([]);
    expect(get(JSON.stringify(payment))).toEqual([]);
  });

  it('fails a payment missing updatedAt with a documented body violation', () => {
    const { updatedAt: _dropped, ...payment } = example('PaymentSuccessful');
    const violations = get(payment);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ kind: 'body', pointer: '/updatedAt', level: 'documented' });
    expect(violations[0]!.requirements).toContain('PAY-FIELD-UPDATED-AT');
  });

  it('marks a missing key whose presence is our choice as assumed', () => {
    const { title: _dropped, ...payment } = example('PaymentActive');
    expect(get(payment)).toEqual([expect.objectContaining({ kind: 'body', pointer: '/title', level: 'assumed' })]);
  });

  it('rates a nullable field that breaks only an assumed sample format as assumed, a broken documented one as documented', () => {
    const eightDecimals = get({ ...example('PaymentSuccessful'), exchangeRate: '1.00000000' });
    expect(eightDecimals).toEqual([expect.objectContaining({ pointer: '/exchangeRate', level: 'assumed' })]);
    expect(eightDecimals[0]!.requirements).toContain('PAY-EXCHANGE-RATE-6-DECIMALS');
    const notDecimal = get({ ...example('PaymentSuccessful'), exchangeRate: '1,5' });
    expect(notDecimal).toEqual([expect.objectContaining({ pointer: '/exchangeRate', level: 'documented' })]);
  });

  it('enforces the state invariants of the retrieve view', () => {
    const failedWithoutError = { ...example('PaymentFailed'), error: null };
    expect(get(failedWithoutError).some((v) => v.pointer === '/error' && v.level === 'documented')).toBe(true);
    const activeWithChain = { ...example('PaymentActive'), chainId: 8453 };
    expect(get(activeWithChain).some((v) => v.pointer === '/chainId')).toBe(true);
  });

  it('fails an undocumented status', () => {
    const violations = get(example('PaymentSuccessful'), 418);
    expect(kinds(violations)).toEqual(['status']);
    expect(violations[0]!.message).toContain('418');
  });

  it('fails a missing or malformed rate-limit header', () => {
    const { 'X-RateLimit-Remaining': _dropped, ...withoutRemaining } = jsonHeaders;
    const missing = get(example('PaymentSuccessful'), 200, withoutRemaining);
    expect(missing).toEqual([expect.objectContaining({ kind: 'header', pointer: 'X-RateLimit-Remaining', level: 'documented' })]);
    expect(missing[0]!.requirements).toContain('RL-HEADERS-EVERY-RESPONSE');
    const malformed = get(example('PaymentSuccessful'), 200, { ...jsonHeaders, 'x-ratelimit-reset': 'soon' });
    expect(malformed).toEqual([expect.objectContaining({ kind: 'header', pointer: 'X-RateLimit-Reset' })]);
  });

  it('requires the rate-limit headers on errors too, and Retry-After (assumed) on 429', () => {
    const body = { statusCode: 429, message: 'Rate limit exceeded', error: 'Too Many Requests' };
    expect(get(body, 429, { ...jsonHeaders, 'Retry-After': '12' })).toEqual([]);
    const violations = get(body, 429, { 'Content-Type': 'application/json' });
    expect(
      violations
        .filter((v) => v.level === 'documented')
        .map((v) => v.pointer)
        .sort(),
    ).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(violations.filter((v) => v.level === 'assumed').map((v) => v.pointer)).toEqual(['Retry-After']);
  });

  it('checks the content type', () => {
    const payment = example('PaymentSuccessful');
    expect(kinds(get(payment, 200, { ...rateLimited, 'content-type': 'text/html' }))).toEqual(['content-type']);
    expect(kinds(get(payment, 200, rateLimited))).toEqual(['content-type']);
    const csv =
      'id,createdAt,status,amount,currency,serviceFee,merchantFee,externalId,title,chainId,token,exchangeRate,amountToken,txHash,paidAt\r\n';
    expect(
      service.validateResponse({
        method: 'GET',
        path: '/v1/analytics/export',
        status: 200,
        headers: { ...rateLimited, 'content-type': 'text/csv; charset=utf-8' },
        body: csv,
      }),
    ).toEqual([]);
    expect(
      kinds(
        service.validateResponse({
          method: 'GET',
          path: '/v1/analytics/export',
          status: 200,
          headers: { ...rateLimited, 'content-type': 'text/csv' },
          body: 'id,status\n',
        }),
      ),
    ).toEqual(['body']);
  });

  it('reports a body that is not JSON, and a request to an unknown operation', () => {
    expect(get('{not json')).toEqual([expect.objectContaining({ kind: 'body', level: 'documented' })]);
    expect(service.validateResponse({ method: 'GET', path: '/v1/nothing', status: 200, headers: jsonHeaders, body: {} })).toEqual([
      expect.objectContaining({ kind: 'operation' }),
    ]);
  });

  it('checks the create view: exactly the 14 fields, status ACTIVE', () => {
    const create = (body: unknown) =>
      service.validateResponse({ method: 'POST', path: '/v1/payments', status: 201, headers: jsonHeaders, body });
    expect(create(example('PaymentCreateViewMinimal'))).toEqual([]);
    expect(create({ ...example('PaymentCreateViewMinimal'), updatedAt: '2026-11-21T10:00:00.000Z' })).toEqual([
      expect.objectContaining({ kind: 'body', pointer: '/updatedAt', level: 'documented' }),
    ]);
    expect(create({ ...example('PaymentCreateViewMinimal'), status: 'PROCESSING' }).map((v) => v.pointer)).toEqual(['/status']);
  });

  it('rates violations of wholly assumed shapes as assumed', () => {
    const endpoint = { ...example('WebhookEndpoint'), secretLast4: 'XYZ' };
    const violations = service.validateResponse({ method: 'GET', path: '/v1/webhooks', status: 200, headers: jsonHeaders, body: endpoint });
    expect(violations).toEqual([expect.objectContaining({ kind: 'body', level: 'assumed', pointer: '/secretLast4' })]);
    const clock = control.validateResponse({
      method: 'GET',
      path: '/control/v1/clock',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { now: 'yesterday', offsetMs: 0 },
    });
    expect(clock.map((v) => v.level)).toContain('assumed');
    expect(clock.every((v) => v.level === 'assumed')).toBe(true);
  });

  // Issue 23: a 401/404/429 body of another shape was filed under ERR-BODY-SHAPE, whose statement is about 400/409.
  it('files a 401, 404 or 429 body of another shape under the assumed requirement first, not the documented 400/409 one', () => {
    const cases = [
      { method: 'GET', path: '/v1/payments', status: 401 },
      { method: 'GET', path: '/v1/payments/7c9e6679-7425-40de-944b-e07fc1f90ae7', status: 404 },
      { method: 'GET', path: '/v1/payments', status: 429 },
    ];
    for (const response of cases) {
      const violations = service.validateResponse({
        ...response,
        headers: { ...jsonHeaders, 'Retry-After': '3' },
        body: { code: 'unauthorized', detail: 'no' },
      });
      expect(violations.length).toBeGreaterThan(0);
      for (const violation of violations.filter((v) => v.kind === 'body')) {
        expect(violation.level).toBe('assumed');
        expect(violation.requirements[0]).toBe('ERR-BODY-SHAPE-OTHER-STATUSES');
      }
    }
    const badRequest = service.validateResponse({
      method: 'DELETE',
      path: '/v1/payments/7c9e6679-7425-40de-944b-e07fc1f90ae7',
      status: 400,
      headers: jsonHeaders,
      body: { code: 'x' },
    });
    expect(
      badRequest.filter((v) => v.kind === 'body').every((v) => v.level === 'documented' && v.requirements.includes('ERR-BODY-SHAPE')),
    ).toBe(true);
  });
});

describe('validateRequest', () => {
  it('checks the create body: grammar, maximum, minimum, unknown fields, levels', () => {
    expect(service.validateRequest('createPayment', { body: { amount: '100.5', currency: 'USD' } })).toEqual([]);
    const tooBig = service.validateRequest('createPayment', { body: { amount: '1000000000000.01', currency: 'USD' } });
    expect(tooBig).toEqual([expect.objectContaining({ kind: 'body', pointer: '/amount', level: 'documented' })]);
    const belowMinimum = service.validateRequest('createPayment', { body: { amount: '0.50', currency: 'USD' } });
    expect(belowMinimum).toEqual([expect.objectContaining({ pointer: '/amount', level: 'assumed' })]);
    const unknownField = service.validateRequest('createPayment', { body: { amount: '10', currency: 'USD', note: 'x' } });
    expect(unknownField).toEqual([expect.objectContaining({ pointer: '/note', level: 'assumed' })]);
    const noPair = service.validateRequest('createPayment', {
      body: { amount: '10', currency: 'USD', acceptedChains: [8453], acceptedTokens: ['USDT'] },
    });
    expect(noPair).toEqual([expect.objectContaining({ level: 'assumed', requirements: ['PAY-ACCEPTED-PAIR-EXISTS'] })]);
    expect(service.validateRequest('createPayment', {})).toEqual([expect.objectContaining({ kind: 'body' })]);
  });

  it('checks query parameters after coercion', () => {
    expect(service.validateRequest('listPayments', { query: { limit: '100' } })).toEqual([]);
    expect(service.validateRequest('listPayments', { query: new URLSearchParams('limit=101') })).toEqual([
      expect.objectContaining({ kind: 'parameter', pointer: 'limit', level: 'documented' }),
    ]);
    expect(service.validateRequest('listPayments', { query: { limit: '0' } })).toEqual([
      expect.objectContaining({ kind: 'parameter', pointer: 'limit', level: 'assumed' }),
    ]);
    expect(service.validateRequest('listPayments', { query: { status: 'PAID' } })).toEqual([
      expect.objectContaining({ pointer: 'status' }),
    ]);
    expect(service.validateRequest('nope', {})).toEqual([expect.objectContaining({ kind: 'operation' })]);
  });
});

describe('validateWebhook', () => {
  const headers = { 'X-Service-Timestamp': '1795255500', 'X-Service-Signature': `t=1795255500,v1=${'0f'.repeat(32)}` };
  const payload = {
    event: 'payment.completed',
    timestamp: '2026-11-21T10:05:00.000Z',
    data: { paymentId: '5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b', externalId: null },
  };

  it('passes a valid delivery and checks both signature headers', () => {
    expect(service.validateWebhook('payment.completed', payload, headers)).toEqual([]);
    expect(service.validateWebhook('payment.completed', JSON.stringify(payload), headers)).toEqual([]);
    expect(
      service
        .validateWebhook('payment.completed', payload, { 'X-Service-Signature': 'v1=abc' })
        .map((v) => v.pointer)
        .sort(),
    ).toEqual(['X-Service-Signature', 'X-Service-Timestamp']);
  });

  it('rejects a payload of another event, a test event with data, and unknown events', () => {
    expect(service.validateWebhook('payment.failed', payload, headers).map((v) => v.pointer)).toEqual(['/event']);
    expect(service.validateWebhook('test', { event: 'test', timestamp: '2026-11-21T10:05:00.000Z', data: {} }, headers)).toEqual([
      expect.objectContaining({ pointer: '/data', level: 'documented' }),
    ]);
    expect(service.validateWebhook('payout.completed', { ...payload, event: 'payout.completed' }, headers).length).toBeGreaterThan(0);
    expect(service.validateWebhook('payment.refunded', payload, headers)).toEqual([expect.objectContaining({ kind: 'operation' })]);
  });
});

describe('helpers', () => {
  it('compares decimal strings exactly', () => {
    expect(compareDecimals('1000000000000.01', '1000000000000')).toBe(1);
    expect(compareDecimals('0100', '100.00')).toBe(0);
    expect(compareDecimals('99.99', '100')).toBe(-1);
    expect(compareDecimals('0.5', '0.49')).toBe(1);
    expect(() => compareDecimals('1e3', '1')).toThrow();
  });

  it('prefers literal path segments over parameters', () => {
    const matcher = new PathMatcher(['/a/{id}', '/a/test']);
    expect(matcher.matchAll('/a/test').map((m) => m.template)).toEqual(['/a/test', '/a/{id}']);
    expect(matcher.matchAll('/a/x%20y')[0]?.params).toEqual({ id: 'x y' });
    expect(pathnameOf('https://h:1/a/b?c=d#e')).toBe('/a/b');
  });
});
