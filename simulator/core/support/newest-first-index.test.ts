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

  it('a lazy range walk gives each id at most once and every id that stayed, while inserts and removals interleave', () => {
    const change = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: fc.integer({ min: 0, max: 30 }), id: fc.uuid() }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.uuid()), { minLength: 1, maxLength: 60 }),
        fc.array(fc.array(change, { maxLength: 3 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (initial, between, a, b) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const index = new NewestFirstIndex();
          const at = new Map<string, number>();
          for (const [t, id] of initial) if (!at.has(id)) at.set(id, t);
          for (const [id, t] of at) index.insert(id, t);
          const removed = new Set<string>();
          const seen: string[] = [];
          let step = 0;
          for (const id of index.idsBetween(from, to)) {
            seen.push(id);
            // Changes anywhere in the index, below the walk's position included, before the next read.
            for (const c of between[step++] ?? []) {
              if (c.kind === 'insert' && !at.has(c.id)) {
                at.set(c.id, c.at);
                index.insert(c.id, c.at);
              } else if (c.kind === 'remove') {
                const ids = [...at.keys()].filter((id) => !removed.has(id));
                const victim = ids[c.pick % Math.max(1, ids.length)];
                if (victim !== undefined) {
                  removed.add(victim);
                  index.remove(victim);
                }
              }
            }
          }
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of seen) expect(at.get(id)! >= from && at.get(id)! <= to).toBe(true);
          // Newest first: (time, id) strictly descending.
          for (let i = 1; i < seen.length; i += 1) {
            const [p, q] = [seen[i - 1]!, seen[i]!];
            expect(at.get(p)! > at.get(q)! || (at.get(p) === at.get(q) && p > q)).toBe(true);
          }
          // Every original id in range that was never removed is seen.
          for (const [t, id] of initial) if (t === at.get(id) && t >= from && t <= to && !removed.has(id)) expect(seen).toContain(id);
        },
      ),
    );
  });
});
