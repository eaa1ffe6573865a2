import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryStore } from './delivery-store.ts';
import type { WebhookEventType } from './types.ts';

const EVENTS: WebhookEventType[] = ['payment.processing', 'payment.completed', 'test'];

describe('DeliveryStore.list', () => {
  it('a cursor walk with any page size and filter yields each matching delivery once, newest first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 5 }), event: fc.constantFrom(...EVENTS) }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 100 }),
        fc.option(fc.constantFrom(...EVENTS), { nil: undefined }),
        (specs, limit, event) => {
          const store = new DeliveryStore();
          const made = specs.map((s) =>
            store.create({
              merchantId: 'm',
              event: s.event,
              paymentId: null,
              payoutId: null,
              url: 'http://x/',
              rawBody: '{}',
              createdAtMs: s.at,
            }),
          );
          store.create({
            merchantId: 'other',
            event: 'test',
            paymentId: null,
            payoutId: null,
            url: 'http://y/',
            rawBody: '{}',
            createdAtMs: 3,
          });
          const expected = made
            .filter((r) => event === undefined || r.event === event)
            .sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1))
            .map((r) => r.id);
          const walked: string[] = [];
          let cursor: string | undefined;
          for (;;) {
            const page = store.list('m', { limit, ...(cursor ? { cursor } : {}), ...(event ? { event } : {}) });
            expect(page.data.length).toBeLessThanOrEqual(limit);
            walked.push(...page.data.map((d) => d.id));
            if (!page.hasMore) {
              expect(page.nextCursor).toBeNull();
              break;
            }
            cursor = page.nextCursor!;
          }
          expect(walked).toEqual(expected);
        },
      ),
    );
  });

  it('returns copies: mutating a view does not change the record', () => {
    const store = new DeliveryStore();
    const record = store.create({
      merchantId: 'm',
      event: 'test',
      paymentId: null,
      payoutId: null,
      url: 'http://x/',
      rawBody: '{"event":"test"}',
      createdAtMs: 0,
    });
    const view = store.get('m', record.id)!;
    view.attempts.push({ number: 1, attemptedAt: '', statusCode: 200, durationMs: 0, error: null });
    (view.payload as { event: string }).event = 'changed';
    expect(store.get('m', record.id)!.attempts).toEqual([]);
    expect(store.get('m', record.id)!.payload).toEqual({ event: 'test' });
    expect(store.get('other', record.id)).toBeUndefined();
  });
});
