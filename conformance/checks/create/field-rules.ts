// Every create rule, both ways: each invalid body is a 400 "Validation failed" whose errors[] names
// the invalid field; each boundary body that the rule allows is a 201.
import type { CheckContext } from '../../context.ts';
import { deriveCreateRules } from '../../generators/create-rules.ts';
import { defineCheck } from '../../registry.ts';
import { errorPaths, namesField } from '../../support/payments.ts';
import { fieldCases } from './field-cases.ts';

export const FIELD_RULE_REQUIREMENTS = [
  'PAY-CREATE-AMOUNT-DECIMALS', 'PAY-CREATE-AMOUNT-STRING', 'PAY-CREATE-AMOUNT-REQUIRED', 'PAY-CREATE-AMOUNT-MAX',
  'PAY-CREATE-AMOUNT-MIN', 'PAY-CREATE-AMOUNT-GRAMMAR', 'PAY-CREATE-AMOUNT-ZERO-DECIMAL', 'PAY-CREATE-AMOUNT-ZERO-DECIMAL-POINT',
  'PAY-CREATE-CURRENCY-ENUM', 'PAY-CREATE-CURRENCY-REQUIRED', 'PAY-CREATE-TITLE-MAX', 'PAY-CREATE-EXTID-MAX',
  'PAY-CREATE-EXTID-CHARSET', 'PAY-CREATE-CHAINS-SUBSET', 'PAY-CREATE-CHAINS-NONEMPTY', 'PAY-CREATE-TOKENS-SUBSET',
  'PAY-CREATE-PAIR-EXISTS', 'PAY-CREATE-EXPIRESAT-WINDOW', 'PAY-CREATE-SELLERS-MAX', 'PAY-CREATE-SELLER-AMOUNT-DECIMALS',
  'PAY-CREATE-SELLER-ADDRESS', 'PAY-CREATE-SELLERS-SUM', 'PAY-CREATE-SELLERS-NONEMPTY', 'PAY-CREATE-MERCHANT-AMOUNT-SUM',
  'PAY-CREATE-MERCHANT-AMOUNT-DECIMALS', 'PAY-CREATE-UNKNOWN-FIELDS', 'PAY-CREATE-BODY-NOT-JSON',
  'ERR-400-VALIDATION-BODY', 'ERR-400-ERRORS-PER-FIELD',
];

export const createFieldRules = defineCheck({
  id: 'create.field-rules',
  title: 'Each create rule of spec §4/§8: invalid values are 400 naming the field, boundary values are 201',
  requirements: FIELD_RULE_REQUIREMENTS,
  level: 'documented',
  needs: [],
  tags: ['validation', 'negative'],
  async run(ctx: CheckContext) {
    const rules = deriveCreateRules(ctx.contract);
    for (const rule of fieldCases(rules)) {
      const now = ctx.clock.now();
      const body = rule.body(now);
      const response = typeof body === 'string'
        ? await ctx.api.request({ method: 'POST', path: '/v1/payments', body, headers: { 'content-type': 'application/json' } })
        : await ctx.api.post('/v1/payments', body);
      ctx.addCases();
      if (rule.invalidPath === null) {
        ctx.expect(response.status === 201, rule.requirement, `Valid create refused: ${rule.name}`, () => `expected 201, got ${response.status}: ${response.text.slice(0, 300)}`, response.exchange);
        continue;
      }
      if (!ctx.expect(response.status === 400, rule.requirement, `Invalid create not refused with 400: ${rule.name}`, () => `expected 400, got ${response.status}: ${response.text.slice(0, 300)}`, response.exchange)) continue;
      const error = response.json as { statusCode?: unknown; message?: unknown; error?: unknown } | undefined;
      ctx.expect(
        error?.statusCode === 400 && error.message === 'Validation failed' && error.error === 'Bad Request',
        'ERR-400-VALIDATION-BODY',
        `400 body is not {statusCode: 400, message: "Validation failed", error: "Bad Request"}: ${rule.name}`,
        () => response.text.slice(0, 300),
        response.exchange,
      );
      const path = rule.invalidPath;
      ctx.expect(
        namesField(response.json, path),
        'ERR-400-ERRORS-PER-FIELD',
        `errors[] does not name the invalid field: ${rule.name}`,
        () => `expected an errors[] entry with path starting ${JSON.stringify(path)}; got paths ${JSON.stringify(errorPaths(response.json))}`,
        response.exchange,
      );
    }
  },
});
