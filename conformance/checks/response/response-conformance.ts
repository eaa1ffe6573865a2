// Cross-cutting, fed by the recorder: every response the suite received from the service during the
// run is validated against the contract (documented status, content type, headers, body schema).
// Identical findings are folded into one with an occurrence count and the first reproduction.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { toCurl } from '../../http/curl.ts';
import type { Exchange } from '../../http/recorder.ts';

export const RESPONSE_REQUIREMENTS = ['FMT-RESPONSE-CONFORMS', 'FMT-JSON-BODIES', 'ERR-STATUS-DOCUMENTED'];

function requirementOf(kind: string, fromContract: string | undefined, known: Set<string>): string {
  if (fromContract && known.has(fromContract) && RESPONSE_REQUIREMENTS.includes(fromContract)) return fromContract;
  if (/status/i.test(kind)) return 'ERR-STATUS-DOCUMENTED';
  if (/content-?type|json/i.test(kind)) return 'FMT-JSON-BODIES';
  return 'FMT-RESPONSE-CONFORMS';
}

export const responseConformance = defineCheck({
  id: 'response.conformance',
  title: 'Every response of the run matches the contract: documented status, content type, headers, body schema',
  requirements: RESPONSE_REQUIREMENTS,
  level: 'documented',
  needs: [],
  tags: ['cross-cutting', 'contract'],
  async run(ctx: CheckContext) {
    const exchanges = ctx.services.recorder.all('service').filter((e) => e.status !== null);
    if (exchanges.length === 0) ctx.notExercised('no service responses were recorded (run it with other checks)');
    const known = new Set(ctx.services.catalogue.keys());
    const folded = new Map<string, { requirement: string; message: string; count: number; exchange: Exchange }>();
    for (const exchange of exchanges) {
      ctx.addCases();
      const url = new URL(exchange.url);
      let body: unknown = undefined;
      if (exchange.responseBody.length) {
        try {
          body = JSON.parse(exchange.responseBody);
        } catch {
          body = exchange.responseBody;
        }
      }
      const violations = ctx.contract.validateResponse({ method: exchange.method, path: url.pathname, status: exchange.status!, headers: exchange.responseHeaders, body });
      const operation = ctx.contract.operationOf(exchange.method, url.pathname) ?? `${exchange.method} ${url.pathname}`;
      for (const violation of violations) {
        const requirement = requirementOf(violation.kind, violation.requirement, known);
        const key = `${operation} ${exchange.status} ${violation.kind} ${violation.message}`;
        const entry = folded.get(key);
        if (entry) entry.count++;
        else folded.set(key, { requirement, message: `${operation} → ${exchange.status}: ${violation.message}`, count: 1, exchange });
      }
    }
    for (const { requirement, message, count, exchange } of folded.values()) {
      ctx.findings.push({
        requirement,
        title: 'Response does not match the contract',
        message: `${message}\n(${count} occurrence${count > 1 ? 's' : ''}; first in check ${exchange.checkId})`,
        reproduction: toCurl(exchange, ctx.services.secrets),
        occurrences: count,
      });
    }
  },
});
