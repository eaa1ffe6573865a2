// The store's filtered lists and time ranges read indexes; they must give exactly what a plain
// filter over every payment gives, while statuses change and pages are walked by cursor.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PaymentStore } from './payment-store.ts';
import { PAYMENT_STATUSES, type Payment, type PaymentStatus } from './types.ts';

const M = 'merchant-1';

function payment(id: string, createdAt: number, externalId: string | null, status: PaymentStatus = 'ACTIVE'): Payment {
  return { id, merchantId: M, status, createdAt, externalId } as unknown as Payment;
}

/** Newest first, as the store orders: time desc, then id desc. */
const newestFirst = (a: Payment, b: Payment): number => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function walk(store: PaymentStore, filter: { status?: PaymentStatus; externalId?: string }, limit: number): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = store.list(M, { ...filter, cursor, limit });
    if (!page) throw new Error('cursor refused');
    seen.push(...page.items.map((p) => p.id));
    if (!page.hasMore) return seen;
    cursor = page.items.at(-1)!.id;
  }
}

describe('PaymentStore indexes', () => {
  it('filtered lists and time ranges equal a plain filter, through status changes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 20 }), ext: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(fc.record({ index: fc.nat(), status: fc.constantFrom(...PAYMENT_STATUSES) }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.record({ from: fc.integer({ min: 0, max: 20 }), span: fc.integer({ min: 0, max: 20 }) }),
        (inserts, updates, limit, range) => {
          const store = new PaymentStore();
          const model = new Map<string, Payment>();
          inserts.forEach(({ at, ext }, i) => {
            const p = payment(`p${String(i).padStart(3, '0')}`, at, ext);
            // Several live payments may not share an externalId; a cancelled one frees it for the next.
            if (!store.insert(p).ok) return;
            model.set(p.id, p);
            const cancelled = { ...p, status: 'CANCELLED' as PaymentStatus };
            store.update(cancelled);
            model.set(p.id, cancelled);
          });
          const ids = [...model.keys()];
          for (const { index, status } of updates) {
            const p = model.get(ids[index % ids.length]!)!;
            const next = { ...p, status };
            store.update(next);
            model.set(p.id, next);
          }
          const all = [...model.values()].sort(newestFirst);
          const filters: { status?: PaymentStatus; externalId?: string }[] = [
            {},
            ...PAYMENT_STATUSES.map((status) => ({ status })),
            { externalId: 'a' },
            { externalId: 'b', status: 'CANCELLED' },
          ];
          for (const filter of filters) {
            const expected = all
              .filter(
                (p) =>
                  (filter.status === undefined || p.status === filter.status) &&
                  (filter.externalId === undefined || p.externalId === filter.externalId),
              )
              .map((p) => p.id);
            expect(walk(store, filter, limit), JSON.stringify(filter)).toEqual(expected);
          }
          const to = range.from + range.span;
          expect([...store.all(M, { from: range.from, to })].map((p) => p.id)).toEqual(
            all.filter((p) => p.createdAt >= range.from && p.createdAt <= to).map((p) => p.id),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a filtered page may continue after a cursor that has left the filter', () => {
    const store = new PaymentStore();
    for (let i = 0; i < 4; i += 1) store.insert(payment(`p${i}`, i, null));
    const first = store.list(M, { status: 'ACTIVE', limit: 2 })!;
    expect(first.items.map((p) => p.id)).toEqual(['p3', 'p2']);
    store.update({ ...first.items[1]!, status: 'CANCELLED' });
    expect(store.list(M, { status: 'ACTIVE', limit: 2, cursor: 'p2' })!.items.map((p) => p.id)).toEqual(['p1', 'p0']);
    expect(store.list(M, { status: 'ACTIVE', limit: 2, cursor: 'nope' })).toBeUndefined();
  });
});
