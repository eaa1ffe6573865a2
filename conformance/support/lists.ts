// Reading a list response without assuming its item key: the spec puts nextCursor and hasMore "alongside the items"
// and names no array, so the items are under the key the run established (premise list.item-key), or the one array
// beside nextCursor/hasMore of this particular response. Checks that read list items declare the premise.
import type { CheckContext } from '../context.ts';
import type { HttpClient, HttpResponse } from '../http/client.ts';
import type { Exchange } from '../http/recorder.ts';
import { itemKeyOf } from '../premises/discover/list-item-key.ts';

export interface ListRead<Item = Record<string, unknown>> {
  status: number;
  /** The items, or null when the body is no list envelope with one recognisable item array. */
  items: Item[] | null;
  nextCursor: unknown;
  hasMore: unknown;
  /** Whether the body carries both envelope fields (hasMore a boolean, nextCursor present). */
  envelope: boolean;
  exchange: Exchange;
}

/** The items of a list response (see the module comment); consults premise list.item-key. */
export async function readList<Item = Record<string, unknown>>(ctx: CheckContext, response: HttpResponse): Promise<ListRead<Item>> {
  const established = await ctx.premise('list.item-key');
  const body = response.json as Record<string, unknown> | undefined;
  const key = itemKeyOf(body, established);
  const items = key !== null ? (body![key] as Item[]) : null;
  return {
    status: response.status,
    items,
    nextCursor: body?.nextCursor,
    hasMore: body?.hasMore,
    envelope: body !== undefined && body !== null && typeof body === 'object' && typeof body.hasMore === 'boolean' && 'nextCursor' in body,
    exchange: response.exchange,
  };
}

/** GET a list path and read it. */
export async function getList<Item = Record<string, unknown>>(
  ctx: CheckContext,
  api: HttpClient,
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<ListRead<Item>> {
  return readList<Item>(ctx, await api.get(path, query));
}
