// Every create rule, both ways: each invalid body is a 400 "Validation failed" whose errors[] names
// the invalid field; each boundary body that the rule allows is a 201.
import type { ErrorBody } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { deriveCreateRules } from '../../generators/create-rules.ts';
import { defineCheck } from '../../registry.ts';
import { errorPaths, namesField } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { fieldCases } from './field-cases.ts';

export const FIELD_RULE_REQUIREMENTS = [
  'PAY-CREATE-AMOUNT-DECIMALS',
  'FMT-AMOUNT-DECIMAL-STRING',
  'PAY-CREATE-AMOUNT-REQUIRED',
  'PAY-CREATE-AMOUNT-MAX',
  'PAY-CREATE-AMOUNT-MIN-VALUES',
  'PAY-CREATE-AMOUNT-GRAMMAR',
  'PAY-CREATE-AMOUNT-ZERO-DECIMAL',
  'PAY-CREATE-ZERO-DECIMAL-NO-POINT',
  'PAY-CREATE-CURRENCY-ENUM',
  'PAY-CREATE-CURRENCY-REQUIRED',
  'PAY-CREATE-TITLE-MAX-LENGTH',
  'PAY-CREATE-EXTERNAL-ID-MAX-LENGTH',
  'PAY-CREATE-EXTERNAL-ID-CHARSET',
  'PAY-CREATE-ACCEPTED-CHAINS-SUBSET',
  'PAY-ACCEPTED-NON-EMPTY-UNIQUE',
  'PAY-CREATE-ACCEPTED-TOKENS-SUBSET',
  'PAY-ACCEPTED-PAIR-EXISTS',
  'PAY-CREATE-EXPIRES-AT-WINDOW',
  'PAY-CREATE-SELLERS-MAX',
  'PAY-SELLER-FIELD-AMOUNT',
  'PAY-SELLER-ADDRESS-FORMAT',
  'PAY-SELLER-ADDRESS-DUPLICATE-400',
  'PAY-SELLER-ADDRESS-CHECKSUM',
  'PAY-MERCHANT-AMOUNT-NO-SELLERS',
  'PAY-EXTERNAL-ID-NON-EMPTY',
  'PAY-SELLERS-SUM-EXCEEDS-400',
  'PAY-SELLERS-NON-EMPTY',
  'PAY-CREATE-MERCHANT-AMOUNT-SUM',
  'PAY-CREATE-MERCHANT-AMOUNT-DECIMALS',
  'PAY-CREATE-UNKNOWN-FIELDS-400',
  'PAY-CREATE-BODY-NOT-OBJECT-400',
  'ERR-400-CREATE-VALIDATION',
  'ERR-VALIDATION-ERRORS-ARRAY',
  'ERR-VALIDATION-PATH-SEGMENTS',
  'CHAIN-ETHEREUM-TOKENS',
  'CHAIN-ARBITRUM-TOKENS',
  'CHAIN-BASE-TOKENS',
  'CHAIN-POLYGON-TOKENS',
  'CHAIN-BNB-TOKENS',
  'PAY-TOKENS-USDC-USDT',
  'CUR-ZERO-DECIMAL',
];

export const createFieldRules = defineCheck({
  id: 'create.field-rules',
  title: 'Each create rule of spec §4/§8: invalid values are 400 naming the field, boundary values are 201',
  requirements: FIELD_RULE_REQUIREMENTS,
  level: 'documented',
  needs: [],
  tags: ['validation', 'negative'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const rules = deriveCreateRules(ctx.contract);
    for (const rule of fieldCases(rules, await ctx.premise('payments.minimum-amounts'))) {
      const now = ctx.clock.now();
      const body = rule.body(now);
      const response =
        typeof body === 'string'
          ? await ctx.api.request({ method: 'POST', path: '/v1/payments', body, headers: { 'content-type': 'application/json' } })
          : await ctx.api.post('/v1/payments', body);
      ctx.addCases();
      if (rule.invalidPath === null) {
        ctx.expect(
          response.status === 201,
          rule.requirement,
          `Valid create refused: ${rule.name}`,
          () => `expected 201, got ${response.status}: ${response.text.slice(0, 300)}`,
          response.exchange,
        );
        continue;
      }
      if (
        !ctx.expect(
          response.status === 400,
          rule.requirement,
          `Invalid create not refused with 400: ${rule.name}`,
          () => `expected 400, got ${response.status}: ${response.text.slice(0, 300)}`,
          response.exchange,
        )
      )
        continue;
      const error = response.json as Received<ErrorBody> | undefined;
      ctx.expect(
        error?.statusCode === 400 && error.message === 'Validation failed' && error.error === 'Bad Request',
        'ERR-400-CREATE-VALIDATION',
        `400 body is not {statusCode: 400, message: "Validation failed", error: "Bad Request"}: ${rule.name}`,
        () => response.text.slice(0, 300),
        response.exchange,
      );
      const path = rule.invalidPath;
      ctx.expect(
        namesField(response.json, path),
        rule.pathAssumed ? 'ERR-VALIDATION-PATH-SEGMENTS' : 'ERR-VALIDATION-ERRORS-ARRAY',
        `errors[] does not name the invalid field: ${rule.name}`,
        () =>
          `expected an errors[] entry with path starting ${JSON.stringify(path)}; got paths ${JSON.stringify(errorPaths(response.json))}`,
        response.exchange,
      );
    }
  },
});
