// Cross-cutting, fed by the recorder: every response the suite received from the service during the
// run is validated against the contract (documented status, content type, headers, body schema).
// Identical findings are folded into one with an occurrence count and the first reproduction.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import type { Exchange } from '../../http/recorder.ts';
import type { ContractViolation } from '../../contract-facade.ts';
import { ExchangeJudgements, bodyValue, pathOf } from '../../exchange-judgements.ts';
import type { CatalogueRequirement } from '../../types.ts';
import { isV1Exchange } from '../versioning/path-prefix.ts';

/** What every validated response exercises; a finding may cite the more specific ID the contract names. */
export const RESPONSE_REQUIREMENTS = [
  'FMT-JSON-BODIES',
  'PAY-CREATE-ERRORS',
  'PAY-GET-ERRORS',
  'PAY-CANCEL-ERRORS',
  'ERR-BODY-SHAPE',
  'ERR-BODY-SHAPE-OTHER-STATUSES',
  'FMT-AMOUNT-DECIMAL-STRING',
  'FMT-ID-UUID',
  'FMT-TIMESTAMP-ISO8601-UTC',
  // Field statements the Payment / PaymentCreateView / Seller / PaymentStatus schemas encode (type,
  // presence, enum, null-until-initiated), so a Payment body breaking one fails this check.
  'PAY-STATE-SET',
  'PAY-FIELD-STATUS',
  'PAY-FIELD-CURRENCY',
  'PAY-FIELD-TITLE',
  'PAY-FIELD-EXTERNAL-ID',
  'PAY-FIELD-ACCEPTED-CHAINS',
  'PAY-FIELD-ACCEPTED-TOKENS',
  'PAY-FIELD-SERVICE-FEE',
  'PAY-FIELD-MERCHANT-FEE',
  'PAY-FIELD-SELLERS',
  'PAY-FIELD-CHAIN-ID',
  'PAY-FIELD-TOKEN',
  'PAY-FIELD-EXCHANGE-RATE',
  'PAY-FIELD-AMOUNT-TOKEN',
  'PAY-FIELD-SERVICE-FEE-TOKEN',
  'PAY-FIELD-MERCHANT-FEE-TOKEN',
  'PAY-FIELD-TX-HASH',
  'PAY-FIELD-EXPIRES-AT',
  'PAY-FIELD-CREATED-AT',
  'PAY-SELLER-FIELD-ADDRESS',
];

const PAYMENT_VIEW_REQUIREMENTS = RESPONSE_REQUIREMENTS.filter(
  (id) => id.startsWith('PAY-FIELD-') || id === 'PAY-STATE-SET' || id.startsWith('FMT-'),
);
const PAYMENT_OPERATIONS = new Set(['POST /v1/payments', 'GET /v1/payments/{id}', 'DELETE /v1/payments/{id}']);
const ERRORS_OF: Record<string, string> = {
  'POST /v1/payments': 'PAY-CREATE-ERRORS',
  'GET /v1/payments/{id}': 'PAY-GET-ERRORS',
  'DELETE /v1/payments/{id}': 'PAY-CANCEL-ERRORS',
};

/** What validating one response judged: its operation's documented statuses, the error body of its status, a payment view's fields. */
function judgedBy(operation: string, status: number, body: unknown): string[] {
  const judged = ['FMT-JSON-BODIES'];
  if (ERRORS_OF[operation]) judged.push(ERRORS_OF[operation]!);
  if (status === 400 || status === 409) judged.push('ERR-BODY-SHAPE');
  if (status === 401 || status === 404 || status === 429) judged.push('ERR-BODY-SHAPE-OTHER-STATUSES');
  if (PAYMENT_OPERATIONS.has(operation) && status >= 200 && status < 300) {
    judged.push(...PAYMENT_VIEW_REQUIREMENTS);
    if (Array.isArray((body as { sellers?: unknown } | undefined)?.sellers)) judged.push('PAY-SELLER-FIELD-ADDRESS');
  }
  return judged;
}

/** The contract's own requirement for the violated element (same level first), else the generic one. */
function requirementOf(violation: ContractViolation, catalogue: Map<string, CatalogueRequirement>): string {
  const known = violation.requirements.filter((id) => catalogue.has(id));
  return known.find((id) => catalogue.get(id)!.level === violation.level) ?? known[0] ?? 'FMT-JSON-BODIES';
}

export const responseConformance = defineCheck({
  id: 'response.conformance',
  title: 'Every response of the run matches the contract: documented status, content type, headers, body schema',
  requirements: RESPONSE_REQUIREMENTS,
  level: 'documented',
  needs: [],
  tags: ['cross-cutting', 'contract'],
  async run(ctx: CheckContext) {
    // Only the API under /v1: versioning.path-prefix-v1 probes paths outside it on purpose.
    const exchanges = ctx.services.recorder.answered('service').filter((e) => isV1Exchange(e, ctx.options.baseUrl));
    if (exchanges.length === 0) ctx.notExercised('no service responses were recorded (run it with other checks)');
    if (!ctx.contract.available) ctx.notExercised('the contract validator could not be loaded');
    // Mostly judged already, in the background while the run went on (exchange-judgements.ts).
    const judgements = ctx.services.judgements ?? new ExchangeJudgements();
    const folded = new Map<
      string,
      { requirement: string; level: ContractViolation['level']; message: string; count: number; exchange: Exchange }
    >();
    for (const exchange of exchanges) {
      ctx.addCases();
      const path = pathOf(exchange);
      const body = bodyValue(judgements.body(exchange));
      const violations = judgements.contractViolations(exchange, ctx.contract);
      const operation = ctx.contract.operationOf(exchange.method, path) ?? `${exchange.method} ${path}`;
      ctx.judged(...judgedBy(operation, exchange.status!, body));
      for (const violation of violations) {
        const requirement = requirementOf(violation, ctx.services.catalogue);
        const key = `${operation} ${exchange.status} ${violation.kind} ${violation.message}`;
        const entry = folded.get(key);
        if (entry) entry.count++;
        else
          folded.set(key, {
            requirement,
            level: violation.level,
            message: `${operation} → ${exchange.status}: ${violation.message}`,
            count: 1,
            exchange,
          });
      }
    }
    for (const { requirement, level, message, count, exchange } of folded.values()) {
      ctx.findings.push({
        requirement,
        level,
        title: 'Response does not match the contract',
        message: `${message}\n(${count} occurrence${count > 1 ? 's' : ''}; first in check ${exchange.checkId})`,
        ...ctx.evidence(exchange),
        occurrences: count,
      });
    }
  },
});
