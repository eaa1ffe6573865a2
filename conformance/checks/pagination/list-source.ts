// Where a pagination check gets a list it fully knows: a fresh merchant (control API), else the
// main merchant, whose list also holds whatever earlier checks created.
import type { PaymentList } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import { createPayment } from '../../support/payments.ts';

export async function listSource(ctx: CheckContext, purpose: string): Promise<{ api: HttpClient; fresh: boolean }> {
  if (ctx.services.control) return { api: (await ctx.newMerchant(purpose)).api, fresh: true };
  return { api: ctx.api, fresh: false };
}

export async function createMany(ctx: CheckContext, api: HttpClient, count: number, requirement: string, parallel = 8): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, count - start) }, (_, i) =>
        createPayment(api, { amount: `${10 + start + i}.00`, currency: 'USD', title: `page item ${start + i}` }),
      ),
    );
    for (const created of batch) {
      ctx.requireStatus(created, 201, requirement, 'Setup: create list items');
      ids.push(created.payment.id);
    }
  }
  return ids;
}

export interface ListPage {
  status: number;
  data: { id: string; createdAt: string }[];
  nextCursor: string | null | undefined;
  hasMore: boolean | undefined;
  exchange: import('../../http/recorder.ts').Exchange;
}

export async function listPage(api: HttpClient, query: Record<string, string | number | undefined>): Promise<ListPage> {
  const response = await api.get('/v1/payments', query);
  const body = (response.json ?? {}) as Partial<PaymentList>;
  return {
    status: response.status,
    data: Array.isArray(body.data) ? body.data : [],
    nextCursor: body.nextCursor,
    hasMore: body.hasMore,
    exchange: response.exchange,
  };
}
