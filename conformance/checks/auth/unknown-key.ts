// A well-formed key that was never issued. Derived from the run seed so a reproduction can name it.
import type { CheckContext } from '../../context.ts';
import { createHash } from 'node:crypto';
import { defineCheck } from '../../registry.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';

export const unknownKey = defineCheck({
  id: 'auth.unknown-key',
  title: 'A well-formed pk_ key that was never issued gets 401 on every operation',
  requirements: ['AUTH-401-MISSING-INVALID', 'ERR-401-ALL'],
  level: 'documented',
  needs: [],
  tags: ['security'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const key = `pk_${createHash('sha256').update(`unknown-${ctx.options.seed}`).digest('hex').slice(0, 48)}`;
    await expectRefusedEverywhere(ctx, { header: `Bearer ${key}` }, 'AUTH-401-MISSING-INVALID', 'a never-issued pk_ key', ['ERR-401-ALL']);
  },
});
