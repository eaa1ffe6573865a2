// A RunResult the size of a real failing run, for the report layout tests: every check of the suite, the whole
// requirement catalogue in the matrix, `failing` failed checks with long unbreakable strings (curl lines with big
// bodies, replay commands), a warning, not-exercised and skipped checks.
import { PremiseBook } from '../premises/book.ts';
import { ALL_CHECKS } from '../checks/index.ts';
import { loadCatalogueRequirements } from '../contract-facade.ts';
import type { RunServices } from '../context.ts';
import { Recorder } from '../http/recorder.ts';
import { SecretRegistry } from '../http/redact.ts';
import { resolveOptions } from '../options.ts';
import { assembleResult, type RunPlan } from '../runner.ts';
import type { CheckResult, RunResult } from '../types.ts';

export function largeRun(failing = 10): RunResult {
  const catalogue = loadCatalogueRequirements();
  const options = resolveOptions({
    baseUrl: 'http://127.0.0.1:4000',
    apiKey: 'pk_largeRunKey0123456789abcdef',
    seed: 4242,
    write: () => {},
  });
  const services = {
    options,
    secrets: new SecretRegistry(),
    recorder: new Recorder(),
    catalogue: new Map(catalogue.map((r) => [r.id, r])),
    premises: new PremiseBook({}),
  } as unknown as RunServices;
  const longBody = JSON.stringify({
    amount: '100',
    currency: 'USD',
    title: 'x'.repeat(900),
    sellers: Array.from({ length: 12 }, (_, i) => ({ address: `0x${'ab'.repeat(20)}`, amount: `${i}.50` })),
  });
  const checks: CheckResult[] = ALL_CHECKS.map((check, index) => {
    const base = {
      id: check.id,
      title: check.title,
      requirements: check.requirements,
      judged: check.requirements,
      level: check.level,
      needs: check.needs,
      tags: check.tags,
      premises: check.premises,
      durationMs: 40 + index,
      cases: 20,
      requests: 12,
      seed: 4242,
    };
    if (index < failing) {
      const requirement = check.requirements[0]!;
      return {
        ...base,
        result: 'fail' as const,
        failures: [0, 1].map((n) => ({
          checkId: check.id,
          requirement,
          severity: 'fail' as const,
          title: `${check.title}: finding ${n + 1}`,
          message: `expected status 400 with errors[].path ["sellers","${n}","address"], got 201\n${'y'.repeat(600)}`,
          reproduction: `curl -i -X POST 'http://127.0.0.1:4000/v1/payments' -H "Authorization: Bearer $STABLEPAY_API_KEY" -H 'content-type: application/json' --data-raw '${longBody}'`,
          fastCheck: {
            property: `${check.id}/p`,
            path: Array.from({ length: 400 }, (_, i) => i % 7).join(':'),
            numRuns: 20,
            counterexample: '[]',
          },
        })),
      };
    }
    if (index === failing)
      return {
        ...base,
        result: 'warn' as const,
        failures: [
          {
            checkId: check.id,
            requirement: check.requirements[0]!,
            severity: 'warn' as const,
            title: 'assumed behaviour differs',
            message: 'm',
            reproduction: null,
          },
        ],
      };
    if (index === failing + 1)
      return {
        ...base,
        result: 'not-exercised' as const,
        reason: 'needs control: no control API at http://127.0.0.1:4000/control/v1',
        failures: [],
      };
    if (index === failing + 2) return { ...base, result: 'skipped' as const, reason: 'excluded by --skip slow', failures: [] };
    return { ...base, result: 'pass' as const, failures: [] };
  });
  const plan: RunPlan = {
    selected: [],
    skipped: [],
    capabilities: { control: true, 'webhook-receiver': true, customer: false },
    capabilityNotes: ['webhook receiver at http://127.0.0.1:39999'],
  };
  return assembleResult(checks, plan, services, catalogue, { startedAt: new Date(0), finishedAt: new Date(60_000), version: '0.1.0' });
}
