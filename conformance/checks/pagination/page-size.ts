// limit: default 20, maximum 100 (spec §4), honoured in between.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createMany, listPage, listSource } from './list-source.ts';

export const pageSize = defineCheck({
  id: 'pagination.page-size',
  title: 'List pages hold 20 items by default, 100 at limit=100, and exactly `limit` items in between',
  requirements: ['LIST-LIMIT-DEFAULT', 'LIST-LIMIT-MAX', 'LIST-CURSOR-PAGINATED', 'LIST-ENVELOPE-FIELDS'],
  level: 'documented',
  needs: [],
  tags: ['pagination'],
  resources: { exclusive: ['main-merchant-books'] },
  premises: ['payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    const { api } = await listSource(ctx, 'page size');
    const first = await listPage(ctx, api, { limit: 100 });
    ctx.require(first.status === 200, 'LIST-LIMIT-MAX', 'List with limit=100 refused', `status ${first.status}`, first.exchange);
    if (first.data.length < 100 || !first.hasMore) await createMany(ctx, api, 101 - first.data.length, 'LIST-LIMIT-MAX');
    const byDefault = await listPage(ctx, api, {});
    ctx.expect(
      byDefault.data.length === 20,
      'LIST-LIMIT-DEFAULT',
      'Default page size is not 20',
      `without limit the page has ${byDefault.data.length} items (more than 100 exist)`,
      byDefault.exchange,
    );
    ctx.expect(
      typeof byDefault.hasMore === 'boolean' && byDefault.hasMore && typeof byDefault.nextCursor === 'string',
      'LIST-ENVELOPE-FIELDS',
      'Envelope lacks hasMore/nextCursor',
      `hasMore ${byDefault.hasMore}, nextCursor ${byDefault.nextCursor}`,
      byDefault.exchange,
    );
    const max = await listPage(ctx, api, { limit: 100 });
    ctx.expect(
      max.status === 200 && max.data.length === 100,
      'LIST-LIMIT-MAX',
      'limit=100 does not give 100 items',
      `status ${max.status}, ${max.data.length} items (more than 100 exist)`,
      max.exchange,
    );
    for (const limit of ['1', '37']) {
      const page = await listPage(ctx, api, { limit });
      ctx.expect(
        page.status === 200 && page.data.length === Number(limit),
        'LIST-CURSOR-PAGINATED',
        `limit=${limit} not honoured`,
        `status ${page.status}, ${page.data.length} items`,
        page.exchange,
      );
    }
    ctx.addCases(5);
  },
});
