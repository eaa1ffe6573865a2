// The requirement traceability matrix: every catalogue requirement, the checks that cite it, and
// what they found in this run. Coverage counts a requirement as exercised only when a citing check
// actually judged it (pass, fail or warn) — not-exercised, skipped and a check that broke (error) never count, and
// neither does a requirement a check cites but did not judge in this run (stopped before it, or a branch not taken).
import { worstResult } from './classify.ts';
import type { CatalogueRequirement, CheckResult, CoverageSummary, ResultKind, TraceRow } from './types.ts';

export function buildTraceability(catalogue: CatalogueRequirement[], results: CheckResult[]): TraceRow[] {
  return catalogue.map((requirement) => {
    const checks = results
      .filter((result) => result.requirements.includes(requirement.id))
      .map((result) => {
        const own = result.failures.filter((failure) => failure.requirement === requirement.id);
        let kind: ResultKind = result.result;
        if (kind === 'pass' || kind === 'fail' || kind === 'warn') {
          if (own.some((f) => f.severity === 'fail')) kind = 'fail';
          else if (own.length > 0) kind = 'warn';
          else kind = result.judged.includes(requirement.id) ? 'pass' : 'not-exercised';
        } else if (kind === 'error' && own.length > 0) {
          // What a check found before it broke stands; the rest of what it cites is unjudged (error).
          kind = own.some((f) => f.severity === 'fail') ? 'fail' : 'warn';
        }
        return { id: result.id, result: kind, failed: own.length > 0 };
      });
    const aggregate = worstResult(checks.map((check) => check.result));
    return { requirement, checks, result: aggregate ?? 'not-covered' };
  });
}

export function coverageOf(rows: TraceRow[]): CoverageSummary[] {
  return (['documented', 'assumed'] as const).map((level) => {
    const ofLevel = rows.filter((row) => row.requirement.level === level);
    return {
      level,
      total: ofLevel.length,
      covered: ofLevel.filter((row) => row.checks.length > 0).length,
      exercised: ofLevel.filter((row) => row.checks.some((c) => c.result === 'pass' || c.result === 'fail' || c.result === 'warn')).length,
    };
  });
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`;
}
