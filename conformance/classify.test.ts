import { PremiseBook } from './premises/book.ts';
import { describe, expect, it } from 'vitest';
import { countResults, exitCodeFor, resultOf, severityOf, worstResult } from './classify.ts';
import type { RunServices } from './context.ts';
import { NotExercisedSignal, RequirementError } from './errors.ts';
import { Recorder } from './http/recorder.ts';
import { SecretRegistry } from './http/redact.ts';
import { resolveOptions } from './options.ts';
import { defineCheck } from './registry.ts';
import { runCheck, type RunPlan } from './runner.ts';
import type { Check } from './check.ts';
import type { CatalogueRequirement } from './types.ts';

describe('result classification (DESIGN §2)', () => {
  it('fails documented requirements, warns assumed ones unless strict', () => {
    expect(severityOf('documented', false)).toBe('fail');
    expect(severityOf('assumed', false)).toBe('warn');
    expect(severityOf('assumed', true)).toBe('fail');
  });

  it('takes the worst failure as the result; nothing found is a pass', () => {
    expect(resultOf([])).toBe('pass');
    expect(resultOf([{ severity: 'warn' }])).toBe('warn');
    expect(resultOf([{ severity: 'warn' }, { severity: 'fail' }])).toBe('fail');
  });

  it('never counts not-exercised or skipped as passed', () => {
    const counts = countResults([{ result: 'pass' }, { result: 'not-exercised' }, { result: 'skipped' }, { result: 'warn' }]);
    expect(counts).toEqual({ passed: 1, failed: 0, warned: 1, notExercised: 1, skipped: 1 });
    expect(exitCodeFor(counts)).toBe(0);
    expect(exitCodeFor({ ...counts, failed: 1 })).toBe(1);
    expect(worstResult(['not-exercised', 'pass'])).toBe('pass');
    expect(worstResult(['skipped', 'not-exercised'])).toBe('not-exercised');
  });
});

const catalogue: CatalogueRequirement[] = [
  { id: 'DOC-1', section: '§1', statement: 'documented', level: 'documented', tags: [] },
  { id: 'ASM-1', section: '§6', statement: 'assumed', level: 'assumed', tags: [] },
];

function services(strict = false): RunServices {
  const options = resolveOptions({ baseUrl: 'http://127.0.0.1:9', apiKey: 'pk_unit', strict, seed: 1, write: () => {} });
  return {
    options,
    api: null as never,
    control: null,
    receiver: null,
    contract: null as never,
    catalogue: new Map(catalogue.map((r) => [r.id, r])),
    recorder: new Recorder(),
    secrets: new SecretRegistry(),
    clock: { now: () => Date.now(), at: (ms) => ms, refresh: async () => Date.now() },
    premises: new PremiseBook({}),
  };
}

const plan = (capabilities: RunPlan['capabilities']): RunPlan => ({ selected: [], skipped: [], capabilities, capabilityNotes: ['no control API at x'] });
const check = (run: Check['run'], needs: Check['needs'] = []): Check =>
  defineCheck({ id: 'unit.check', title: 'unit', requirements: ['DOC-1', 'ASM-1'], level: 'documented', needs, tags: [], run });

describe('runCheck', () => {
  const none = plan({ control: false, 'webhook-receiver': false, customer: false });

  it('reports a check whose capability is missing as not-exercised, without running it', async () => {
    let ran = false;
    const result = await runCheck(check(async () => void (ran = true), ['control']), services(), none, 1, 1);
    expect(ran).toBe(false);
    expect(result.result).toBe('not-exercised');
    expect(result.reason).toMatch(/needs control/);
  });

  it('turns a finding on an assumed requirement into warn, and fail under --strict', async () => {
    const finding = check(async (ctx) => ctx.fail('ASM-1', 'assumed broken', 'detail'));
    expect((await runCheck(finding, services(false), none, 1, 1)).result).toBe('warn');
    expect((await runCheck(finding, services(true), none, 1, 1)).result).toBe('fail');
  });

  it('fails on a documented finding and on an unexpected exception', async () => {
    const thrown = await runCheck(check(async () => { throw new RequirementError('DOC-1', 'broken', 'detail'); }), services(), none, 1, 1);
    expect(thrown.result).toBe('fail');
    expect(thrown.failures[0]).toMatchObject({ checkId: 'unit.check', requirement: 'DOC-1', severity: 'fail', title: 'broken' });
    const crashed = await runCheck(check(async () => { throw new TypeError('boom'); }), services(), none, 1, 1);
    expect(crashed.result).toBe('fail');
    expect(crashed.failures[0]!.title).toMatch(/unexpected error/);
  });

  it('keeps a check that lost a capability mid-run as not-exercised when it found nothing', async () => {
    const result = await runCheck(check(async () => { throw new NotExercisedSignal('control API answered 404'); }), services(), none, 1, 1);
    expect(result).toMatchObject({ result: 'not-exercised', reason: 'control API answered 404' });
  });

  it('refuses findings on requirements the check does not cite', async () => {
    const result = await runCheck(check(async (ctx) => ctx.fail('OTHER-1', 'x', 'y')), services(), none, 1, 1);
    expect(result.result).toBe('fail');
    expect(result.failures[0]!.message).toMatch(/does not cite/);
  });

  it('records the seed and replay path of a fast-check counterexample', async () => {
    const fc = (await import('fast-check')).default;
    const property = check(async (ctx) =>
      ctx.property('small', fc.integer({ min: 0, max: 1000 }), async (n) => {
        if (n > 10) throw new RequirementError('DOC-1', 'too big', `n = ${n}`);
      }),
    );
    const first = await runCheck(property, services(), none, 1, 1);
    const details = first.failures[0]!.fastCheck!;
    expect(details.seed).toBeTypeOf('number');
    expect(details.path).not.toBe('');
    expect(details.counterexample).toBe('[11]');
    expect(details.replay).toContain(`--replay unit.check/small=${details.path}`);
    const replayed = services();
    replayed.options.replay = { 'unit.check/small': details.path };
    const again = await runCheck(property, replayed, none, 1, 1);
    expect(again.failures[0]!.fastCheck!.counterexample).toBe('[11]');
    expect(again.cases).toBeLessThan(first.cases);
  });
});
