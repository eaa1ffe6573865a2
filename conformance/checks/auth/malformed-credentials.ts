// Malformed credentials: wrong scheme, missing token, key without the pk_ prefix, stray spaces.
// None of these values is a secret, so reports show them as sent.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';

export const MALFORMED_HEADERS = [
  'Bearer',
  'Bearer ',
  'Basic dXNlcjpwYXNz',
  'Token pk_conformance_malformed',
  'Bearer sk_conformance_not_a_pk_key',
  'Bearer pk_',
  'bearer-pk_conformance_malformed',
];

export const malformedCredentials = defineCheck({
  id: 'auth.malformed-credentials',
  title: 'Malformed Authorization headers (wrong scheme, no key, no pk_ prefix) get 401',
  requirements: ['AUTH-401-MISSING-INVALID', 'ERR-401-ALL', 'AUTH-401-CASES'],
  level: 'documented',
  needs: [],
  tags: ['security', 'negative'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    for (const header of MALFORMED_HEADERS) {
      await expectRefusedEverywhere(ctx, { header }, 'AUTH-401-MISSING-INVALID', `Authorization "${header}"`, [
        'ERR-401-ALL',
        'AUTH-401-CASES',
      ]);
    }
  },
});
