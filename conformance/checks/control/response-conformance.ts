// Cross-cutting, fed by the recorder: every control-API call the run made (clock, customer actions,
// merchants, keys, rates, rate limit, payouts, health) is validated against conformance/control-api.yaml
// (documented status, content type, headers, body schema). The whole control API is our design, so
// every finding is assumed (warn outside --strict). Identical findings are folded into one.
import { loadContract, type Contract } from '@stablepay/contract/validator';
import type { CheckContext } from '../../context.ts';
import { bodyValue, parseBody } from '../../exchange-judgements.ts';
import type { Exchange } from '../../http/recorder.ts';
import { defineCheck } from '../../registry.ts';

export const CONTROL_REQUIREMENTS = [
  'CTL-MOUNT',
  'CTL-HEALTH',
  'CTL-CLOCK',
  'CTL-CLOCK-ADVANCE',
  'CTL-CLOCK-SET',
  'CTL-TEST-CLOCK',
  'CTL-PAYMENT-SUBMIT',
  'CTL-PAYMENT-CONFIRM',
  'CTL-PAYMENT-FAIL',
  'CTL-PAYMENT-PAY',
  'CTL-DASHBOARD-CREATE',
  'CTL-MERCHANT-CREATE',
  'CTL-API-KEY-CREATE',
  'CTL-EXCHANGE-RATES',
  'CTL-RATE-LIMIT',
  'CTL-PAYOUT-CREATE',
  'CTL-PAYOUT-DRIVE',
];

/** The control operation's own CTL-* requirement; CTL-MOUNT (JSON in and out, common error body) otherwise. */
const requirementOf = (ids: string[]): string => ids.find((id) => CONTROL_REQUIREMENTS.includes(id)) ?? 'CTL-MOUNT';

export const controlResponseConformance = defineCheck({
  id: 'control.response-conformance',
  title: 'Every control-API response of the run matches control-api.yaml',
  requirements: CONTROL_REQUIREMENTS,
  level: 'assumed',
  needs: ['control'],
  tags: ['cross-cutting', 'contract'],
  async run(ctx: CheckContext) {
    const exchanges = ctx.services.recorder.answered('control').filter((e) => e.checkId !== ctx.check.id);
    if (exchanges.length === 0) ctx.notExercised('no control-API responses were recorded (run it with checks that use the control API)');
    let contract: Contract;
    try {
      contract = await loadContract('control');
    } catch (error) {
      ctx.notExercised(`the control contract could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    }
    const base = new URL(ctx.control.http.options.baseUrl).pathname.replace(/\/+$/, '');
    const folded = new Map<string, { requirement: string; message: string; count: number; exchange: Exchange }>();
    for (const exchange of exchanges) {
      ctx.addCases();
      const pathname = new URL(exchange.url).pathname;
      const path = base && pathname.startsWith(base) ? pathname.slice(base.length) || '/' : pathname;
      const match = contract.findOperation(exchange.method, path);
      const operation = match ? `${match.method.toUpperCase()} ${match.pathTemplate}` : `${exchange.method} ${path}`;
      const violations = contract.validateResponse({
        method: exchange.method,
        path,
        status: exchange.status!,
        headers: exchange.responseHeaders,
        body: bodyValue(parseBody(exchange.responseBody)),
      });
      const info = match ? contract.operations.find((op) => op.operationId === match.operationId) : undefined;
      ctx.judged('CTL-MOUNT', ...(info?.requirements ?? []).filter((id) => CONTROL_REQUIREMENTS.includes(id)));
      for (const violation of violations) {
        const key = `${operation} ${exchange.status} ${violation.kind} ${violation.message}`;
        const entry = folded.get(key);
        if (entry) entry.count++;
        else
          folded.set(key, {
            requirement: requirementOf(violation.requirements),
            message: `${operation} → ${exchange.status}: ${violation.message}`,
            count: 1,
            exchange,
          });
      }
    }
    for (const { requirement, message, count, exchange } of folded.values()) {
      ctx.findings.push({
        requirement,
        level: 'assumed',
        title: 'Control-API response does not match control-api.yaml',
        message: `${message}\n(${count} occurrence${count > 1 ? 's' : ''}; first in check ${exchange.checkId})`,
        ...ctx.evidence(exchange),
        occurrences: count,
      });
    }
  },
});
