// The replay recipe of each kind of failed check, and the note under a curl line: which secrets to export and where
// to find them, or why a line (or a check) cannot be replayed as printed.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../types.ts';
import { replayRecipeFor, type RecipeRun } from './recipe.ts';
import { curlNote, curlVariables } from './secret-needs.ts';

function check(overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    id: 'pagination.cursor-walk',
    title: 'walk',
    requirements: ['LIST-CURSOR-PAGINATED'],
    level: 'documented',
    needs: [],
    tags: ['pagination'],
    premises: [],
    result: 'fail',
    failures: [],
    durationMs: 1,
    cases: 1,
    requests: 1,
    seed: 7,
    judged: [],
    ...overrides,
  };
}

function run(overrides: Partial<RecipeRun['options']> = {}, rest: Partial<Omit<RecipeRun, 'options'>> = {}): RecipeRun {
  return {
    options: {
      reportDir: 'reports/conformance',
      formats: ['console', 'json'],
      reportDirExplicit: false,
      controlToken: undefined,
      headers: {},
      seed: 7,
      ...overrides,
    },
    startedTarget: false,
    control: true,
    ...rest,
  };
}

describe('replay recipes', () => {
  it('a failed or warned check gets the short line and the key it reads; a passed one none', () => {
    expect(replayRecipeFor(check(), run())).toEqual({
      command: 'stablepay replay reports/conformance/conformance.json --check pagination.cursor-walk',
      needs: [{ variable: 'STABLEPAY_API_KEY', where: expect.stringContaining('--api-key') }],
    });
    expect(replayRecipeFor(check({ result: 'warn' }), run())?.command).toContain('--check pagination.cursor-walk');
    for (const result of ['pass', 'not-exercised', 'skipped', 'error'] as const)
      expect(replayRecipeFor(check({ result }), run())).toBeUndefined();
  });

  it('names every secret of the run it needs: the control token, the second key, each -H header as a variable', () => {
    const recipe = replayRecipeFor(
      check(),
      run({ controlToken: 'ct_x', secondApiKey: 'pk_second', headers: { 'X-Gateway-Token': 'g' }, reportDir: 'my reports' }),
    )!;
    expect(recipe.command).toBe(
      `stablepay replay 'my reports/conformance.json' --check pagination.cursor-walk -H "X-Gateway-Token: $STABLEPAY_HEADER_X_GATEWAY_TOKEN"`,
    );
    expect(recipe.needs.map((n) => n.variable)).toEqual([
      'STABLEPAY_API_KEY',
      'STABLEPAY_CONTROL_TOKEN',
      'STABLEPAY_SECOND_API_KEY',
      'STABLEPAY_HEADER_X_GATEWAY_TOKEN',
    ]);
    expect(recipe.command).not.toContain('ct_x');
  });

  it('says why there is none: the browser customer, or a clock only libfaketime moved', () => {
    const customer = replayRecipeFor(
      check({ id: 'customer.settles', needs: ['customer'] }),
      run({}, { control: false, startedTarget: true }),
    )!;
    expect(customer.command).toBeNull();
    expect(customer.why).toMatch(/browser .* rerun stablepay conformance <the run's target flags> --only customer\.settles --seed 7/);
    const clock = replayRecipeFor(check({ id: 'lifecycle.expiry', tags: ['clock'] }), run({}, { control: false }))!;
    expect(clock.command).toBeNull();
    expect(clock.why).toMatch(/libfaketime/);
    // With a control API the clock moves through it: replayable.
    expect(replayRecipeFor(check({ id: 'lifecycle.expiry', tags: ['clock'] }), run())?.command).not.toBeNull();
  });

  it('notes what else the line needs: a JSON report, a running implementation', () => {
    expect(replayRecipeFor(check(), run({ formats: ['html'] }))?.note).toMatch(/no JSON report.*--format json/);
    expect(replayRecipeFor(check(), run({ formats: ['json'] }))?.note).toMatch(/went to stdout/);
    expect(replayRecipeFor(check(), run({}, { startedTarget: true }))?.note).toMatch(/start it and give its URL with --base-url/);
  });
});

describe('curl lines', () => {
  it("runs as printed with the run's own secrets exported; a secret the suite made makes it an as-sent record", () => {
    const own = `curl -i -X GET 'http://x/v1/payments' -H "Authorization: Bearer $STABLEPAY_API_KEY"`;
    expect(curlVariables(own)).toEqual({ needs: [{ variable: 'STABLEPAY_API_KEY', where: expect.any(String) }], suiteMade: [] });
    expect(curlNote(own)).toMatch(/^export STABLEPAY_API_KEY first/);
    const suite = `curl -i -X DELETE 'http://x/v1/payments/1' -H "Authorization: Bearer $MERCHANT_3_API_KEY"`;
    expect(curlNote(suite)).toBe(
      "as sent: MERCHANT_3_API_KEY is the suite's own and never revealed, so this line does not run as printed; the replay line makes its own and repeats it",
    );
    expect(curlNote(`curl -i 'http://x/v1/payments'`)).toBeNull();
    expect(curlNote(`stablepay replay-delivery 'reports' --delivery delivery-1 --to "$WEBHOOK_URL"`)).toBeNull();
  });
});
