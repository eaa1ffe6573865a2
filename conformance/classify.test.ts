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
import { runPlan } from './run-plan.ts';
import { TransportError } from './http/client.ts';
import { RunStop } from './run-stop.ts';
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
    expect(counts).toEqual({ passed: 1, failed: 0, warned: 1, notExercised: 1, skipped: 1, errors: 0 });
    expect(exitCodeFor(counts)).toBe(0);
    expect(exitCodeFor({ ...counts, failed: 1 })).toBe(1);
    expect(worstResult(['not-exercised', 'pass'])).toBe('pass');
    expect(worstResult(['skipped', 'not-exercised'])).toBe('not-exercised');
  });

  it('exits 2 when the suite could not judge (an error result, the run-time limit), even beside failures; a signal wins', () => {
    const counts = countResults([{ result: 'pass' }, { result: 'fail' }, { result: 'error' }]);
    expect(counts).toMatchObject({ passed: 1, failed: 1, errors: 1 });
    expect(exitCodeFor(counts)).toBe(2);
    expect(exitCodeFor({ ...counts, errors: 0 }, { by: 'max-run-time' })).toBe(2);
    expect(exitCodeFor(counts, { by: 'SIGINT' })).toBe(130);
    expect(exitCodeFor({ ...counts, errors: 0, failed: 0 }, { by: 'SIGTERM' })).toBe(143);
    expect(worstResult(['pass', 'error', 'warn'])).toBe('error');
    expect(worstResult(['error', 'fail'])).toBe('fail');
  });
});

const catalogue: CatalogueRequirement[] = [
  { id: 'DOC-1', section: '§1', statement: 'documented', level: 'documented', tags: [] },
  { id: 'ASM-1', section: '§6', statement: 'assumed', level: 'assumed', tags: [] },
];

function services(strict = false): RunServices {
  const options = resolveOptions({ baseUrl: 'http://127.0.0.1:9', apiKey: 'pk_unit', strict, seed: 1, workers: 1, write: () => {} });
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

const plan = (capabilities: RunPlan['capabilities']): RunPlan => ({
  selected: [],
  skipped: [],
  capabilities,
  capabilityNotes: ['no control API at x'],
});
const check = (run: Check['run'], needs: Check['needs'] = []): Check =>
  defineCheck({ id: 'unit.check', title: 'unit', requirements: ['DOC-1', 'ASM-1'], level: 'documented', needs, tags: [], run });

describe('runCheck', () => {
  const none = plan({ control: false, 'webhook-receiver': false, customer: false });

  it('reports a check whose capability is missing as not-exercised, without running it', async () => {
    let ran = false;
    const result = await runCheck(
      check(async () => void (ran = true), ['control']),
      services(),
      none,
    );
    expect(ran).toBe(false);
    expect(result.result).toBe('not-exercised');
    expect(result.reason).toMatch(/needs control/);
  });

  it('turns a finding on an assumed requirement into warn, and fail under --strict', async () => {
    const finding = check(async (ctx) => ctx.fail('ASM-1', 'assumed broken', 'detail'));
    expect((await runCheck(finding, services(false), none)).result).toBe('warn');
    expect((await runCheck(finding, services(true), none)).result).toBe('fail');
  });

  it('fails on a documented finding; an unexpected exception is an error result, never a finding', async () => {
    const thrown = await runCheck(
      check(async () => {
        throw new RequirementError('DOC-1', 'broken', 'detail');
      }),
      services(),
      none,
    );
    expect(thrown.result).toBe('fail');
    expect(thrown.failures[0]).toMatchObject({ checkId: 'unit.check', requirement: 'DOC-1', severity: 'fail', title: 'broken' });
    const crashed = await runCheck(
      check(async () => {
        throw new TypeError('boom');
      }),
      services(),
      none,
    );
    expect(crashed.result).toBe('error');
    expect(crashed.failures).toEqual([]);
    expect(crashed.error!.message).toBe('TypeError: boom');
    expect(crashed.error!.stack).toMatch(/classify\.test\.ts/);
  });

  it('keeps what a check found before it broke, and still calls the check an error', async () => {
    const result = await runCheck(
      check(async (ctx) => {
        ctx.fail('DOC-1', 'seen', 'before');
        throw new RangeError('later');
      }),
      services(),
      none,
    );
    expect(result.result).toBe('error');
    expect(result.failures.map((f) => f.title)).toEqual(['seen']);
  });

  it("reports a service request with no usable answer as a finding on the check's first requirement, a control one as not-exercised", async () => {
    const exchange = (target: 'service' | 'control') => ({
      id: 1,
      checkId: 'unit.check',
      target,
      method: 'GET',
      url: 'http://127.0.0.1:9/v1/payments',
      requestHeaders: {},
      credential: { kind: 'none' as const },
      requestBody: undefined,
      status: 200,
      responseHeaders: {},
      responseBody: '',
      durationMs: 1,
      transportError: 'x',
      startedAt: '',
    });
    const tooLarge = new TransportError(
      'GET http://127.0.0.1:9/v1/payments: answered 200 with a body over 8 MiB',
      exchange('service'),
      'too-large',
    );
    const service = await runCheck(
      check(async () => {
        throw tooLarge;
      }),
      services(),
      none,
    );
    expect(service.result).toBe('fail');
    expect(service.failures[0]).toMatchObject({ requirement: 'DOC-1', title: 'The response body is larger than the suite reads' });
    expect(service.failures[0]!.reproduction).toMatch(/^curl /);
    const control = await runCheck(
      check(async () => {
        throw new TransportError('POST /clock/advance: no complete answer', exchange('control'), 'timeout');
      }),
      services(),
      none,
    );
    expect(control).toMatchObject({ result: 'not-exercised', reason: expect.stringMatching(/control API did not answer/) });
  });

  it('keeps a check that lost a capability mid-run as not-exercised when it found nothing', async () => {
    const result = await runCheck(
      check(async () => {
        throw new NotExercisedSignal('control API answered 404');
      }),
      services(),
      none,
    );
    expect(result).toMatchObject({ result: 'not-exercised', reason: 'control API answered 404' });
  });

  it('refuses findings on requirements the check does not cite: the check is an error, OTHER-1 gets nothing', async () => {
    const result = await runCheck(
      check(async (ctx) => ctx.fail('OTHER-1', 'x', 'y')),
      services(),
      none,
    );
    expect(result.result).toBe('error');
    expect(result.failures).toEqual([]);
    expect(result.requirements).not.toContain('OTHER-1');
    expect(result.error!.message).toMatch(/reported OTHER-1, which it does not cite/);
  });

  it('makes a property whose predicate throws something other than a finding an error, with the counterexample', async () => {
    const fc = (await import('fast-check')).default;
    const broken = check(async (ctx) =>
      ctx.property('p', fc.integer({ min: 0, max: 5 }), async (n) => void (null as unknown as Record<string, number>)[String(n)]),
    );
    const result = await runCheck(broken, services(), none);
    expect(result.result).toBe('error');
    expect(result.failures).toEqual([]);
    expect(result.error!.message).toMatch(/property p broke on \[\d\]: TypeError/);
  });

  it('gives up a check past its time limit: its requests are aborted and it is an error', async () => {
    const slow = services();
    slow.options.checkTimeLimitMs = 50;
    let aborted = false;
    const result = await runCheck(
      check(async () => {
        const { currentScope } = await import('./http/request-scope.ts');
        const scope = currentScope()!;
        await new Promise<void>((resolve) => scope.signal.addEventListener('abort', () => resolve()));
        aborted = true;
      }),
      slow,
      none,
    );
    expect(aborted).toBe(true);
    expect(result.result).toBe('error');
    expect(result.error!.message).toMatch(/did not finish within 0\.1 s|did not finish within 0\.05 s|did not finish within/);
  });

  it('records the seed and replay path of a fast-check counterexample', async () => {
    const fc = (await import('fast-check')).default;
    const property = check(async (ctx) =>
      ctx.property('small', fc.integer({ min: 0, max: 1000 }), async (n) => {
        if (n > 10) throw new RequirementError('DOC-1', 'too big', `n = ${n}`);
      }),
    );
    const first = await runCheck(property, services(), none);
    const details = first.failures[0]!.fastCheck!;
    expect(details.property).toBe('unit.check/small');
    expect(details.path).not.toBe('');
    expect(details.counterexample).toBe('[11]');
    // One seed per run: the property's own is derived from it, never written beside it.
    expect(details).not.toHaveProperty('seed');
    const replayed = services();
    replayed.options.replay = { 'unit.check/small': details.path };
    const again = await runCheck(property, replayed, none);
    expect(again.failures[0]!.fastCheck!.counterexample).toBe('[11]');
    expect(again.cases).toBeLessThan(first.cases);
  });
});

describe('an interrupted run (a signal, --max-run-time)', () => {
  const none = plan({ control: false, 'webhook-receiver': false, customer: false });
  const byId = (id: string, body: Check['run']) =>
    defineCheck({ id, title: id, requirements: ['DOC-1'], level: 'documented', needs: [], tags: [], run: body });
  const stopping = () => {
    const stop = new AbortController();
    const run = services();
    run.stop = stop.signal;
    return { stop, run };
  };

  it('lets the running check end, keeps what it found before its requests were aborted, lists the checks not run', async () => {
    const { stop, run } = stopping();
    const started: string[] = [];
    const first = byId('unit.first', async () => void started.push('unit.first'));
    const running = byId('unit.running', async (ctx) => {
      started.push('unit.running');
      stop.abort(new RunStop('SIGINT', 'the run was interrupted by SIGINT'));
      ctx.fail('DOC-1', 'found in the grace', 'its requests still worked');
      const { currentScope } = await import('./http/request-scope.ts');
      const scope = currentScope()!;
      await new Promise<void>((resolve) => scope.signal.addEventListener('abort', () => resolve()));
      // What an aborted request makes a check report is not kept.
      ctx.fail('DOC-1', 'found after the abort', 'an aborted request');
      await new Promise(() => {});
    });
    const later = byId('unit.later', async () => void started.push('unit.later'));
    const { results, interrupted } = await runPlan({ ...none, selected: [first, running, later] }, run);
    expect(started).toEqual(['unit.first', 'unit.running']);
    expect(results.map((r) => [r.id, r.result])).toEqual([
      ['unit.first', 'pass'],
      ['unit.running', 'fail'],
      ['unit.later', 'skipped'],
    ]);
    expect(results[1]!.failures.map((f) => f.title)).toEqual(['found in the grace']);
    expect(results[1]!.reason).toBe('stopped early: the run was interrupted by SIGINT while this check ran');
    expect(results[2]!.reason).toBe('not run: the run was interrupted by SIGINT');
    expect(interrupted).toEqual({ by: 'SIGINT', message: 'the run was interrupted by SIGINT after 2 of 3 checks', notRun: ['unit.later'] });
  }, 15_000);

  it('judges a check that ends by itself after the stop as usual; one cut short with nothing found is not-exercised, never passed', async () => {
    const { stop, run } = stopping();
    const ends = byId(
      'unit.ends',
      async () => void stop.abort(new RunStop('max-run-time', 'the run reached its time limit (--max-run-time 1 s)')),
    );
    const done = await runPlan({ ...none, selected: [ends] }, run);
    expect(done.results[0]!.result).toBe('pass');
    expect(done.interrupted).toMatchObject({ by: 'max-run-time', notRun: [] });

    const second = stopping();
    const hangs = byId('unit.hangs', () => new Promise(() => {}));
    setTimeout(() => second.stop.abort(new RunStop('SIGTERM', 'the run was interrupted by SIGTERM')), 20);
    const started = performance.now();
    const cut = await runPlan({ ...none, selected: [hangs, ends] }, second.run);
    expect(cut.results.map((r) => [r.id, r.result])).toEqual([
      ['unit.hangs', 'not-exercised'],
      ['unit.ends', 'skipped'],
    ]);
    expect(cut.results[0]!.reason).toBe('the run was interrupted by SIGTERM while this check ran');
    // Left behind after the grace to end (3 s) and the grace after its requests were aborted (2 s).
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 15_000);
});
