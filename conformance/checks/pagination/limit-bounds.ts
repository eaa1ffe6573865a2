// Limits outside 1..100: never more than 100 items (documented maximum); a 400 naming `limit`
// (assumed: the spec does not say what an out-of-range limit gets).
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { namesField } from '../../support/payments.ts';
import { readList } from '../../support/lists.ts';
import { createMany, listPage, listSource } from './list-source.ts';

export const limitBounds = defineCheck({
  id: 'pagination.limit-bounds',
  title: 'Out-of-range or malformed limits never give more than 100 items and are 400 naming limit',
  requirements: ['LIST-LIMIT-MAX', 'LIST-LIMIT-MIN', 'LIST-LIMIT-INVALID-400'],
  level: 'documented',
  needs: [],
  tags: ['pagination', 'negative'],
  resources: { exclusive: ['main-merchant-books'] },
  premises: ['payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    const { api } = await listSource(ctx, 'limit bounds');
    const first = await listPage(ctx, api, { limit: 100 });
    if (first.data.length < 100 || !first.hasMore) await createMany(ctx, api, 101 - first.data.length, 'LIST-LIMIT-MAX');
    for (const limit of ['101', '0', '-1', '1000', 'abc', '2.5']) {
      const response = await api.get('/v1/payments', { limit });
      ctx.addCases();
      if (limit === '101' || limit === '1000') {
        const data = (await readList(ctx, response)).items;
        ctx.expect(
          response.status >= 400 || (Array.isArray(data) && data.length <= 100),
          'LIST-LIMIT-MAX',
          `limit=${limit} returned more than 100 items`,
          () => `status ${response.status}, ${Array.isArray(data) ? data.length : '?'} items`,
          response.exchange,
        );
      }
      ctx.expect(
        response.status === 400 && namesField(response.json, ['limit']),
        ['0', '-1'].includes(limit) ? 'LIST-LIMIT-MIN' : 'LIST-LIMIT-INVALID-400',
        `limit=${limit} is not a 400 naming limit`,
        () => `got ${response.status}: ${response.text.slice(0, 200)}`,
        response.exchange,
      );
    }
  },
});
