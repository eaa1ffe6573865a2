// The version is the path prefix /v1 (spec §9): the payments API answers under /v1 and is not also
// served unversioned or under another version. A 2xx list envelope at /payments or /v2/payments
// means the API lives outside /v1; any other answer (404, 401, a redirect) is fine.
import type { CheckContext } from '../../context.ts';
import type { HttpResponse } from '../../http/client.ts';
import { pathOf } from '../../exchange-judgements.ts';
import type { Exchange } from '../../http/recorder.ts';
import { arraysOf } from '../../premises/discover/list-item-key.ts';
import { defineCheck } from '../../registry.ts';

/** A request to the API proper (under {base_url}/v1): what the cross-cutting checks judge; this check's probes outside it are not. */
export function isV1Exchange(exchange: Exchange, baseUrl: string): boolean {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const path = pathOf(exchange);
  return path.startsWith(`${base}/v1/`) || path === `${base}/v1`;
}

const OUTSIDE_V1 = ['/payments', '/v2/payments'];

/** A 2xx list envelope: nextCursor or hasMore beside an item array, whatever the array is called (not shown). */
const looksLikePaymentList = (response: HttpResponse): boolean =>
  response.status >= 200 && response.status < 300 && (arraysOf(response.json)?.length ?? 0) > 0;

export const pathPrefixV1 = defineCheck({
  id: 'versioning.path-prefix-v1',
  title: 'The API is served under /v1 and payments are not served unversioned or under another version',
  requirements: ['VER-PATH-PREFIX-V1'],
  level: 'documented',
  needs: [],
  tags: ['versioning'],
  async run(ctx: CheckContext) {
    const v1 = await ctx.api.get('/v1/payments', { limit: 1 });
    ctx.addCases();
    ctx.require(
      looksLikePaymentList(v1),
      'VER-PATH-PREFIX-V1',
      'GET /v1/payments is not the payments list',
      () => `expected 200 with a list envelope, got ${v1.status}: ${v1.text.slice(0, 200)}`,
      v1.exchange,
    );
    for (const path of OUTSIDE_V1) {
      const response = await ctx.api.get(path, { limit: 1 });
      ctx.addCases();
      ctx.expect(
        !looksLikePaymentList(response),
        'VER-PATH-PREFIX-V1',
        `GET ${path} serves the payments API outside /v1`,
        () => `expected no payments list outside the /v1 prefix, got ${response.status}: ${response.text.slice(0, 200)}`,
        response.exchange,
      );
    }
  },
});
