// The list's item array: the spec puts nextCursor and hasMore "alongside the items" without naming them. The one
// array beside those two fields in GET /v1/payments is the item array; with several arrays the declared (or the
// simulator's) name decides only if it is one of them.
import type { Discoverer } from '../book.ts';
import { evidenceOf } from './evidence.ts';

/** The arrays of a list envelope (an object with hasMore or nextCursor), by name. */
export function arraysOf(body: unknown): string[] | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const record = body as Record<string, unknown>;
  if (!('hasMore' in record) && !('nextCursor' in record)) return null;
  return Object.keys(record).filter((key) => Array.isArray(record[key]));
}

/** The item key of a list envelope, given the key the run established (falls back to the only array). */
export function itemKeyOf(body: unknown, established: string): string | null {
  const arrays = arraysOf(body);
  if (!arrays) return null;
  if (arrays.includes(established)) return established;
  return arrays.length === 1 ? arrays[0]! : null;
}

export const discoverListItemKey: Discoverer<'list.item-key'> = async (env, candidate) => {
  const response = await env.api.get('/v1/payments', { limit: 1 });
  const arrays = response.status === 200 ? arraysOf(response.json) : null;
  const evidence = (detail: string) => [evidenceOf('GET', '/v1/payments?limit=1', undefined, response, detail)];
  if (!arrays) return { kind: 'inconclusive', evidence: evidence('no list envelope with nextCursor or hasMore') };
  if (arrays.length === 1)
    return { kind: 'discovered', value: arrays[0]!, evidence: evidence(`the one array beside nextCursor/hasMore is "${arrays[0]}"`) };
  if (arrays.includes(candidate))
    return { kind: 'discovered', value: candidate, evidence: evidence(`arrays ${arrays.join(', ')}; "${candidate}" among them`) };
  if (arrays.length === 0) return { kind: 'refuted', evidence: evidence('no array beside nextCursor/hasMore') };
  return { kind: 'inconclusive', evidence: evidence(`several arrays (${arrays.join(', ')}), "${candidate}" not among them`) };
};
