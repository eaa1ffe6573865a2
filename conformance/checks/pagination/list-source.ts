// Where a pagination check gets a list it fully knows: a fresh merchant (control API), else the
// main merchant, whose list also holds whatever earlier checks created.
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { getList } from '../../support/lists.ts';
import { createPayment } from '../../support/payments.ts';

export async function listSource(ctx: CheckContext, purpose: string): Promise<{ api: HttpClient; fresh: boolean }> {
  if (ctx.services.control) return { api: (await ctx.newMerchant(purpose)).api, fresh: true };
  return { api: ctx.api, fresh: false };
}

export async function createMany(ctx: CheckContext, api: HttpClient, count: number, requirement: string, parallel = 8): Promise<string[]> {
  const ids: string[] = [];
  const base = Number(await acceptedAmount(ctx, 'USD', '10'));
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, count - start) }, (_, i) =>
        createPayment(api, { amount: `${Math.ceil(base) + start + i}.00`, currency: 'USD', title: `page item ${start + i}` }),
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

/** One page of GET /v1/payments; the items are read from the array the run established (premise list.item-key). */
export async function listPage(ctx: CheckContext, api: HttpClient, query: Record<string, string | number | undefined>): Promise<ListPage> {
  const page = await getList<{ id: string; createdAt: string }>(ctx, api, '/v1/payments', query);
  return {
    status: page.status,
    data: page.items ?? [],
    nextCursor: page.nextCursor as string | null | undefined,
    hasMore: page.hasMore as boolean | undefined,
    exchange: page.exchange,
  };
}
