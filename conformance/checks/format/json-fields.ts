// Shared by the cross-cutting format checks: walks every JSON body the service returned during the
// run, hands each (key, value) pair to a judge, and folds identical findings into one with an
// occurrence count and the first reproduction (like response.conformance).
import { ExchangeJudgements, pathOf } from '../../exchange-judgements.ts';
import type { CheckContext } from '../../context.ts';
import type { Exchange } from '../../http/recorder.ts';
import { isV1Exchange } from '../versioning/path-prefix.ts';

/** A problem with one field: the requirement it breaks and a short description (no value-specific text). */
export interface FieldProblem {
  requirement: string;
  problem: string;
}

/** A judge returns the problem of a field, or null; `judges` says which requirements a field it looked at stands for. */
export type FieldJudge = (key: string, value: unknown, pointer: string) => FieldProblem | null;

/** JSON-RPC envelopes of the web3 proxy carry the caller's `id` and chain data: not service resources. */
const isJsonRpc = (pathname: string): boolean => pathname.startsWith('/v1/web3/');

/** Generic pointer for folding: array indexes become `*`. */
const shapeOf = (pointer: string): string => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

/** `judges(key, value)`: the requirements a field is judged against (none when the judge ignores it). */
export function judgeRecordedBodies(
  ctx: CheckContext,
  title: string,
  judge: FieldJudge,
  judges: (key: string, value: unknown) => string[],
): void {
  const exchanges = ctx.services.recorder
    .answered('service')
    .filter(
      (e) => e.checkId !== ctx.check.id && e.responseBody.length > 0 && isV1Exchange(e, ctx.options.baseUrl) && !isJsonRpc(pathOf(e)),
    );
  // Parsed and walked once for every run-wide check, mostly in the background while the run went on
  // (exchange-judgements.ts). Not JSON (CSV export, HTML): the format rules are about JSON bodies.
  const judgements = ctx.services.judgements ?? new ExchangeJudgements();
  const bodies = exchanges.filter((exchange) => judgements.body(exchange).kind === 'json');
  if (bodies.length === 0) ctx.notExercised('no JSON service responses were recorded (run it with other checks)');
  const folded = new Map<string, { requirement: string; message: string; count: number; exchange: Exchange }>();
  for (const exchange of bodies) {
    ctx.addCases();
    const path = pathOf(exchange);
    const operation = ctx.contract.operationOf(exchange.method, path) ?? `${exchange.method} ${path}`;
    for (const { key, value, pointer } of judgements.fields(exchange)) {
      const examined = judges(key, value);
      if (examined.length > 0) ctx.judged(...examined);
      const found = judge(key, value, pointer);
      if (!found) continue;
      const where = `${operation} → ${exchange.status} ${shapeOf(pointer)}`;
      const foldKey = `${where} ${found.requirement} ${found.problem}`;
      const entry = folded.get(foldKey);
      if (entry) entry.count++;
      else
        folded.set(foldKey, {
          requirement: found.requirement,
          message: `${where}: ${found.problem} (first value ${JSON.stringify(value).slice(0, 80)})`,
          count: 1,
          exchange,
        });
    }
  }
  for (const { requirement, message, count, exchange } of folded.values()) {
    ctx.findings.push({
      requirement,
      title,
      message: `${message}\n(${count} occurrence${count > 1 ? 's' : ''}; first in check ${exchange.checkId})`,
      ...ctx.evidence(exchange),
      occurrences: count,
    });
  }
}
