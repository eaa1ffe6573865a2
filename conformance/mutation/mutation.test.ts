// The suite proves its strength: every named fault injected into the simulator is caught by the
// conformance suite (a check fails; assumed faults under --strict), and the same suite passes the
// unbroken simulator. Recomputes the figures of RESULTS.md (regenerate it with
// `npx tsx conformance/mutation/run.ts --write`).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULT_DEFINITIONS } from '@stablepay/simulator/faults';
import { ALL_CHECKS } from '../index.ts';
import { renderResults } from './results-table.ts';
import { CONTROLS } from './proxy/controls.ts';
import { controlPassed, isCaught, PROXY_FAULTS, runMutation, type MutationReport } from './run-mutation.ts';
import { BROWSER_TAG, targetChecks } from './target-checks.ts';

describe('mutation self-test', () => {
  let report: MutationReport;

  beforeAll(async () => {
    report = await runMutation();
    const passed = report.controlRuns.filter(controlPassed).length;
    process.stdout.write(
      `mutation self-test: ${report.caught}/${report.injected} faults caught (${report.proxyRuns.filter(isCaught).length}/${report.proxyRuns.length} outside-in), ${passed}/${report.controlRuns.length} controls passed, ${(report.wallMs / 1000).toFixed(1)} s wall, pool of ${report.poolSize}\n`,
    );
  }, 600_000);

  it('has at least 15 documented faults, each breaking a documented requirement some check cites', () => {
    const documented = FAULT_DEFINITIONS.filter((f) => f.level === 'documented');
    expect(documented.length).toBeGreaterThanOrEqual(15);
    for (const fault of FAULT_DEFINITIONS) {
      expect(
        targetChecks(fault, ALL_CHECKS).citing.map((c) => c.id),
        `${fault.name}: no check cites ${fault.breaks.join(', ')}`,
      ).not.toEqual([]);
    }
  });

  it('baseline: the unbroken simulator passes every check, strict', () => {
    const { counts } = report.baseline;
    expect(report.baseline.caughtBy, 'baseline failures').toEqual([]);
    // The browser customer's checks need a black-box run (BLACK-BOX-RESULTS.md); every other check runs and passes.
    const browser = ALL_CHECKS.filter((c) => c.tags.includes(BROWSER_TAG)).length;
    expect(counts).toMatchObject({ failed: 0, warned: 0, notExercised: 0, skipped: browser });
    expect(counts.passed).toBe(ALL_CHECKS.length - browser);
  });

  it.each(FAULT_DEFINITIONS.map((f) => [f.name, f] as const))('%s is caught', (name, fault) => {
    const run = report.runs.find((r) => r.fault?.name === name)!;
    expect(run, name).toBeDefined();
    // Documented faults fail at the default level; assumed ones only count under --strict.
    expect(run.strict).toBe(fault.level === 'assumed');
    expect(
      run.caughtBy.map((c) => c.id),
      `${name} was not caught by ${run.ran.join(', ')}`,
    ).not.toEqual([]);
    // A catching check ran because it cites a broken requirement, or reads every response.
    for (const caught of run.caughtBy) expect(run.ran).toContain(caught.id);
  });

  it('has at least 25 outside-in faults covering every class, and at least 8 negative controls', () => {
    expect(PROXY_FAULTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(PROXY_FAULTS.map((f) => f.class))).toEqual(
      new Set(['invariant', 'oracle', 'flag', 'absence', 'identity', 'contract', 'delivery', 'timing']),
    );
    expect(new Set([...PROXY_FAULTS.map((f) => f.name), ...FAULT_DEFINITIONS.map((f) => f.name)]).size).toBe(
      PROXY_FAULTS.length + FAULT_DEFINITIONS.length,
    );
    expect(CONTROLS.length).toBeGreaterThanOrEqual(8);
    for (const fault of PROXY_FAULTS) {
      expect(
        targetChecks(fault, ALL_CHECKS).citing.map((c) => c.id),
        `${fault.name}: no check cites ${fault.breaks.join(', ')}`,
      ).not.toEqual([]);
    }
  });

  it.each(PROXY_FAULTS.map((f) => [f.name, f] as const))('outside-in %s is caught', (name, fault) => {
    const run = report.proxyRuns.find((r) => r.name === name)!;
    expect(run.strict).toBe(fault.level === 'assumed');
    expect(
      run.caughtBy.map((c) => c.id),
      `${name} was not caught by ${run.ran.join(', ')}`,
    ).not.toEqual([]);
  });

  it.each(CONTROLS.map((c) => [c.name] as const))('control %s passes every check, strict (no false positive)', (name) => {
    const run = report.controlRuns.find((r) => r.name === name)!;
    expect(run.strict).toBe(true);
    expect({ failed: run.caughtBy, warned: run.warnedBy, notExercised: run.notExercised }).toEqual({
      failed: [],
      warned: [],
      notExercised: [],
    });
    expect(run.ran.length).toBeGreaterThan(0);
  });

  it('kill rate is 100 %', () => {
    expect(report.runs.filter((r) => !isCaught(r)).map((r) => r.fault!.name)).toEqual([]);
    expect(report.proxyRuns.filter((r) => !isCaught(r)).map((r) => r.name)).toEqual([]);
    expect(report.caught).toBe(report.injected);
    expect(report.injected).toBe(FAULT_DEFINITIONS.length + PROXY_FAULTS.length);
  });

  it('RESULTS.md carries the recomputed kill rates and the whole fault list', async () => {
    const file = await readFile(new URL('./RESULTS.md', import.meta.url), 'utf8');
    const figures = (text: string): string[] =>
      text.split('\n').filter((l) => l.startsWith('- Kill rate') || l.startsWith('- Baseline') || l.startsWith('- Negative controls'));
    const hint = 'regenerate with: npx tsx conformance/mutation/run.ts --write';
    expect(figures(file), hint).toEqual(figures(renderResults(report)));
    for (const fault of [...FAULT_DEFINITIONS, ...PROXY_FAULTS, ...CONTROLS]) expect(file, hint).toContain(`| \`${fault.name}\` |`);
  });
});
