import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';

export const missingCredentials = defineCheck({
  id: 'auth.missing-credentials',
  title: 'A call without Authorization header is refused with 401 on every operation',
  requirements: ['AUTH-401-MISSING-INVALID', 'ERR-401-ALL'],
  level: 'documented',
  needs: [],
  tags: ['security', 'negative'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    await expectRefusedEverywhere(ctx, null, 'ERR-401-ALL', 'no Authorization header', ['AUTH-401-MISSING-INVALID']);
  },
});
