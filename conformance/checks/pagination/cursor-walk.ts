// Walks the list page by page with `cursor` while new payments are created between pages: every
// payment that existed when the walk began appears exactly once, newest first, hasMore is true
// exactly when another item follows, nextCursor is null exactly when hasMore is false, and an
// unknown cursor is refused (assumed: 400).
import type { CheckContext } from '../../context.ts';
import { randomUUID } from 'node:crypto';
import { defineCheck } from '../../registry.ts';
import { DEFAULTS } from '../../defaults.ts';
import { createMany, listPage, listSource } from './list-source.ts';

export const cursorWalk = defineCheck({
  id: 'pagination.cursor-walk',
  title: 'A cursor walk yields every item exactly once, newest first, while payments are being created',
  requirements: [
    'LIST-CURSOR-PAGINATED',
    'LIST-CURSOR-IS-LAST-ID',
    'LIST-ENVELOPE-FIELDS',
    'LIST-NEXT-CURSOR-LAST-ID',
    'LIST-ORDER-NEWEST-FIRST',
    'LIST-CURSOR-UNKNOWN-400',
  ],
  level: 'documented',
  needs: [],
  tags: ['pagination'],
  resources: { exclusive: ['main-merchant-books'] },
  premises: ['payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    const { api, fresh } = await listSource(ctx, 'cursor walk');
    const initial = new Set(await createMany(ctx, api, DEFAULTS.paginationItems, 'LIST-CURSOR-PAGINATED'));
    // Small pages while this check's own payments (the newest) are walked, so several page boundaries fall among them;
    // on a shared merchant (no control API) the older rest of the list is walked in pages of 100.
    const seen: { id: string; createdAt: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    const cursorsUsed = new Set<string>();
    for (;;) {
      const limit = fresh || [...initial].some((id) => !seen.some((item) => item.id === id)) ? 7 : 100;
      const page = await listPage(ctx, api, { limit, cursor });
      pages++;
      ctx.addCases();
      ctx.require(
        page.status === 200,
        'LIST-CURSOR-PAGINATED',
        'List page refused',
        `page ${pages} (cursor ${cursor}) answered ${page.status}`,
        page.exchange,
      );
      ctx.require(
        page.data.length <= limit,
        'LIST-CURSOR-PAGINATED',
        'Page larger than limit',
        `${page.data.length} items with limit ${limit}`,
        page.exchange,
      );
      seen.push(...page.data);
      // hasMore is true exactly when another item exists: the page after a hasMore page is not empty,
      // and with a list we fully know (fresh merchant) no earlier item is left when it is false.
      if (pages > 1)
        ctx.expect(
          page.data.length > 0,
          'LIST-ENVELOPE-FIELDS',
          'hasMore was true but no item followed',
          `page ${pages - 1} said hasMore true; page ${pages} (cursor ${cursor}) is empty`,
          page.exchange,
        );
      if (!page.hasMore && fresh) {
        const left = [...initial].filter((id) => !seen.some((item) => item.id === id));
        ctx.expect(
          left.length === 0,
          'LIST-ENVELOPE-FIELDS',
          'hasMore is false while items remain',
          () => `page ${pages} says hasMore false; ${left.length} earlier payments were never listed`,
          page.exchange,
        );
      }
      if (!page.hasMore) {
        ctx.expect(
          page.nextCursor === null,
          'LIST-NEXT-CURSOR-LAST-ID',
          'Last page carries a nextCursor',
          `hasMore false, nextCursor ${page.nextCursor}`,
          page.exchange,
        );
        break;
      }
      ctx.require(
        typeof page.nextCursor === 'string' && page.nextCursor.length > 0,
        'LIST-ENVELOPE-FIELDS',
        'hasMore without nextCursor',
        `nextCursor ${JSON.stringify(page.nextCursor)}`,
        page.exchange,
      );
      ctx.expect(
        page.nextCursor === page.data.at(-1)?.id,
        'LIST-NEXT-CURSOR-LAST-ID',
        'nextCursor is not the id of the last item',
        `nextCursor ${page.nextCursor}, last item ${page.data.at(-1)?.id}`,
        page.exchange,
      );
      ctx.require(pages < 5000, 'LIST-CURSOR-PAGINATED', 'The walk does not end', `${pages} pages`, page.exchange);
      // The documented cursor is the id of the last item (spec §4), whatever nextCursor says.
      cursor = page.data.at(-1)?.id;
      ctx.require(
        cursor !== undefined,
        'LIST-CURSOR-IS-LAST-ID',
        'hasMore on an empty page',
        'a page with hasMore true has no items',
        page.exchange,
      );
      ctx.require(
        !cursorsUsed.has(cursor),
        'LIST-CURSOR-IS-LAST-ID',
        'The walk does not advance',
        `page ${pages} ends with ${cursor} again: the cursor is ignored`,
        page.exchange,
      );
      cursorsUsed.add(cursor);
      // Newer payments arrive mid-walk; they sort before the cursor and must not disturb the rest.
      await createMany(ctx, api, 2, 'LIST-CURSOR-PAGINATED', 2);
    }
    const counts = new Map<string, number>();
    for (const item of seen) counts.set(item.id, (counts.get(item.id) ?? 0) + 1);
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const missing = [...initial].filter((id) => !counts.has(id));
    ctx.expect(
      duplicated.length === 0,
      'LIST-CURSOR-PAGINATED',
      'The walk returned items more than once',
      `${duplicated.length} duplicated ids, e.g. ${duplicated.slice(0, 3).join(', ')}`,
    );
    ctx.expect(
      missing.length === 0,
      'LIST-CURSOR-PAGINATED',
      'The walk missed items',
      `${missing.length} of ${initial.size} payments created before the walk were never listed, e.g. ${missing.slice(0, 3).join(', ')}`,
    );
    const disorder = seen.findIndex((item, i) => i > 0 && Date.parse(seen[i - 1]!.createdAt) < Date.parse(item.createdAt));
    ctx.expect(
      disorder < 0,
      'LIST-ORDER-NEWEST-FIRST',
      'The walk is not newest first',
      () => `item ${disorder} (${seen[disorder]?.createdAt}) is newer than the one before (${seen[disorder - 1]?.createdAt})`,
    );
    const unknown = await api.get('/v1/payments', { cursor: randomUUID() });
    ctx.expect(
      unknown.status === 400,
      'LIST-CURSOR-UNKNOWN-400',
      'An unknown cursor is not refused with 400',
      () => `got ${unknown.status}: ${unknown.text.slice(0, 200)}`,
      unknown.exchange,
    );
  },
});
