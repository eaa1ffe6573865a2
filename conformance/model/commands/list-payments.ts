// Walks the merchant's whole list (the model run's merchant is fresh, so the list is exactly the
// model): every payment once, statuses as modelled, newest first.
import type fc from 'fast-check';
import type { PaymentList } from '@stablepay/contract/types';
import type { Payment } from '../../support/payments.ts';
import { readList } from '../../support/lists.ts';
import { type LifecycleModel, type LifecycleReal, judge, observeInvariants, violation } from '../model.ts';

export class ListPaymentsCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(readonly limit: number) {}

  check(): boolean {
    return true;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    const seen: Payment[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const response = await real.api.get('/v1/payments', { limit: this.limit, cursor });
      if (response.status !== 200)
        violation('LIST-CURSOR-PAGINATED', 'List refused', `GET /v1/payments answered ${response.status}`, response.exchange);
      const body = response.json as Partial<PaymentList>;
      const items = ((await readList(real.ctx, response)).items ?? []) as unknown as Payment[];
      seen.push(...items);
      for (const item of items) observeInvariants(model, real, item, response.exchange, String(this));
      // The model knows the whole list: hasMore is true exactly when another item exists.
      const more = seen.length < model.payments.length;
      if (body.hasMore !== more)
        violation(
          'LIST-ENVELOPE-FIELDS',
          `hasMore is ${body.hasMore} with ${more ? 'more' : 'no more'} items to come`,
          `page ${page + 1} (limit ${this.limit}): ${seen.length} of ${model.payments.length} payments listed so far, hasMore ${JSON.stringify(body.hasMore)}`,
          response.exchange,
        );
      // nextCursor is null exactly when hasMore is false (assumed).
      if ((body.nextCursor === null) !== !body.hasMore)
        violation(
          'LIST-NEXT-CURSOR-LAST-ID',
          'nextCursor and hasMore disagree',
          `hasMore ${JSON.stringify(body.hasMore)}, nextCursor ${JSON.stringify(body.nextCursor)}`,
          response.exchange,
        );
      if (!body.hasMore) break;
      cursor = body.nextCursor ?? undefined;
      if (!cursor) violation('LIST-ENVELOPE-FIELDS', 'hasMore without nextCursor', JSON.stringify(body).slice(0, 200), response.exchange);
    }
    const ids = seen.map((p) => p.id);
    const expected = model.payments.map((p) => p.id);
    if (ids.length !== new Set(ids).size || ids.length !== expected.length || !expected.every((id) => ids.includes(id))) {
      violation(
        'LIST-CURSOR-PAGINATED',
        'List does not show every payment exactly once',
        `model has ${expected.length} payments, the walk returned ${ids.length} (${new Set(ids).size} distinct)`,
      );
    }
    for (const p of model.payments) {
      const listed = seen.find((s) => s.id === p.id)!;
      if (listed.status !== p.status && !(model.nearExpiry(p) && listed.status === 'EXPIRED')) {
        violation('LIST-ENVELOPE-DATA', 'Listed status differs from the model', `${p.id}: list shows ${listed.status}, model ${p.status}`);
      }
    }
    judge(real, 'LIST-CURSOR-PAGINATED', 'LIST-ENVELOPE-FIELDS', 'LIST-NEXT-CURSOR-LAST-ID', 'LIST-ENVELOPE-DATA');
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1]!;
      const b = seen[i]!;
      if (Date.parse(a.createdAt) < Date.parse(b.createdAt)) {
        violation(
          'LIST-ORDER-NEWEST-FIRST',
          'List is not newest first',
          `${a.id} (${a.createdAt}) is listed before newer ${b.id} (${b.createdAt})`,
        );
      }
    }
    judge(real, 'LIST-ORDER-NEWEST-FIRST');
  }

  toString(): string {
    return `list(limit ${this.limit})`;
  }
}
