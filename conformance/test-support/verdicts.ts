// What must not depend on how a run was scheduled (--workers, --instances): each check's verdict and findings, the
// order the reports list the checks in, and the matrix. Ids and times vary per run and are left out.
import type { RunResult } from '../index.ts';

/** What must not depend on the worker count: each check's verdict and findings, and the matrix. Ids and times vary per run. */
export function verdicts(result: RunResult) {
  return {
    order: result.checks.map((c) => c.id),
    checks: result.checks.map((c) => ({
      id: c.id,
      result: c.result,
      judged: [...c.judged].sort(),
      findings: c.failures
        .map(
          (f) =>
            `${f.severity} [${f.requirement}] ${f.title}${f.unconfirmedPremises ? ` (premises ${f.unconfirmedPremises.map((p) => p.id).join(',')})` : ''}`,
        )
        .sort(),
      ...(c.result === 'not-exercised' || c.result === 'skipped' ? { reason: c.reason?.replace(/\d+/g, 'N') } : {}),
    })),
    counts: result.summary.counts,
    traceability: result.traceability.map((row) => ({
      requirement: row.requirement.id,
      result: row.result,
      checks: row.checks.map((c) => `${c.id}:${c.result}:${c.failed}`),
    })),
    coverage: result.coverage,
  };
}
