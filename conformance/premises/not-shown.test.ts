// Tests of the principle (DESIGN §2 "Premises"): for every choice the spec leaves open (fixtures/not-shown.json), a
// fixture service of the suite's own makes another legal choice; the suite must report no documented failure against
// it, and must still catch a documented fault injected beside it. Never the simulator with switches: the fixture is
// conformance/test-support/fixture-service/.
import { describe, expect, it } from 'vitest';
import notShown from '../../fixtures/not-shown.json' with { type: 'json' };
import type { FixtureFault } from '../test-support/fixture-service/choices.ts';
import { documentedFailures, runAgainstFixture } from '../test-support/fixture-service/run-variant.ts';
import { VARIANTS, WITHOUT_VARIANT, type Variant } from '../test-support/fixture-service/variants.ts';
import type { RunResult } from '../types.ts';

const runVariant = (variant: Variant, fault?: FixtureFault): Promise<RunResult> =>
  runAgainstFixture({
    choices: variant.choices,
    faults: fault ? [fault] : [],
    control: variant.control,
    checks: variant.checks,
    ...(variant.profile ? { profile: variant.profile } : {}),
  });

describe('every open choice of the spec has a variant or a stated reason', () => {
  it('covers each item of fixtures/not-shown.json exactly once', () => {
    const ids = notShown.items.map((item) => item.id);
    const covered = [...VARIANTS.flatMap((v) => v.notShown), ...Object.keys(WITHOUT_VARIANT)];
    expect([...new Set(covered)].sort()).toEqual([...ids].sort());
    expect(notShown.items.filter((item) => !item.implied)).toHaveLength(20);
  });
});

describe.each(VARIANTS.map((variant) => [variant.notShown.join(' + '), variant] as const))('%s', (_name, variant) => {
  it(`${variant.legal}: no documented failure, and the checks ran`, async () => {
    const result = await runVariant(variant);
    expect(documentedFailures(result)).toEqual([]);
    const ran = result.checks.filter((c) => c.result === 'pass' || c.result === 'warn').map((c) => c.id);
    expect(ran).toEqual(expect.arrayContaining(variant.exercised));
  }, 120_000);

  it(`with ${variant.fault} beside it: ${variant.caughtBy.check} still fails ${variant.caughtBy.requirement}`, async () => {
    const result = await runVariant(variant, variant.fault);
    const caught = result.failures.filter(
      (f) => f.severity === 'fail' && f.checkId === variant.caughtBy.check && f.requirement === variant.caughtBy.requirement,
    );
    expect(caught.length, documentedFailures(result).join('\n') || 'no documented failure at all').toBeGreaterThan(0);
  }, 120_000);
});
