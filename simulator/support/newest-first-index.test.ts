import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NewestFirstIndex } from './newest-first-index.ts';

describe('NewestFirstIndex', () => {
  it('orders by time desc, then id desc', () => {
    const index = new NewestFirstIndex();
    index.insert('b', 1);
    index.insert('a', 2);
    index.insert('c', 1);
    index.insert('d', 0);
    expect([...index.ids()]).toEqual(['a', 'c', 'b', 'd']);
  });

  it('pages with a cursor and reports hasMore exactly', () => {
    const index = new NewestFirstIndex();
    for (let i = 0; i < 5; i += 1) index.insert(`id${i}`, i);
    expect(index.page({ limit: 2 })).toEqual({ ids: ['id4', 'id3'], hasMore: true });
    expect(index.page({ cursor: 'id3', limit: 2 })).toEqual({ ids: ['id2', 'id1'], hasMore: true });
    expect(index.page({ cursor: 'id1', limit: 2 })).toEqual({ ids: ['id0'], hasMore: false });
    expect(index.page({ cursor: 'id2', limit: 2 })).toEqual({ ids: ['id1', 'id0'], hasMore: false });
    expect(index.page({ cursor: 'nope', limit: 2 })).toBeUndefined();
    expect(index.page({ limit: 10, accept: (id) => id !== 'id2' })?.ids).toEqual(['id4', 'id3', 'id1', 'id0']);
  });

  it('a walk sees every original id exactly once while inserts interleave', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.uuid()), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.uuid()), { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        (initial, later, limit) => {
          const index = new NewestFirstIndex();
          const original = new Map(initial.map(([at, id]) => [id, at]));
          for (const [id, at] of original) index.insert(id, at);
          const seen: string[] = [];
          let cursor: string | undefined;
          const pending = later.filter(([, id]) => !original.has(id));
          for (;;) {
            const page = index.page({ cursor, limit });
            if (!page) throw new Error('cursor lost');
            seen.push(...page.ids);
            const next = pending.shift();
            // Newer records only (time moves forward), inserted between pages.
            if (next && !index.has(next[1])) index.insert(next[1], 20 + next[0]);
            if (!page.hasMore) break;
            cursor = page.ids.at(-1);
          }
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of original.keys()) expect(seen).toContain(id);
        },
      ),
    );
  });
});
