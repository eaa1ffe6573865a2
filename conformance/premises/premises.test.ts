// The premise machinery on its own: the book's order (discover, declare, fall back), the runner's cap on findings that
// rest on an unestablished premise (safe by default, narrowed only by the finding), judged requirements in the
// matrix, the profile's schema and placeholders, and the body templates.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../context.ts';
import { resolveOptions } from '../options.ts';
import { Recorder } from '../http/recorder.ts';
import { SecretRegistry } from '../http/redact.ts';
import { defineCheck } from '../registry.ts';
import { runCheck, type RunPlan } from '../runner.ts';
import { buildTraceability } from '../traceability.ts';
import type { CatalogueRequirement } from '../types.ts';
import type { RunServices } from '../context.ts';
import { PremiseBook, type Discoverers } from './book.ts';
import { declarationsOf, profileProblems, readProfileFile } from './profile.ts';
import { fillTemplate, placeholdersOf } from './templates.ts';
import { PREMISES, PREMISE_IDS } from './definitions.ts';
import { TARGET_ENVIRONMENT } from '../black-box-options.ts';

const catalogue: CatalogueRequirement[] = [
  { id: 'DOC-1', section: '§1', statement: 'documented', level: 'documented', tags: [] },
  { id: 'DOC-2', section: '§1', statement: 'documented too', level: 'documented', tags: [] },
  { id: 'ASM-1', section: '§6', statement: 'assumed', level: 'assumed', tags: [] },
];

function services(discoverers: Discoverers = {}, declared = {}): RunServices {
  const options = resolveOptions({ baseUrl: 'http://127.0.0.1:9', apiKey: 'pk_unit', seed: 1, write: () => {} });
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
    premises: new PremiseBook(discoverers, declared),
  };
}

const none: RunPlan = {
  selected: [],
  skipped: [],
  capabilities: { control: false, 'webhook-receiver': false, customer: false },
  capabilityNotes: [],
};
const check = (run: (ctx: CheckContext) => Promise<void>) =>
  defineCheck({
    id: 'unit.premises',
    title: 'unit',
    requirements: ['DOC-1', 'DOC-2', 'ASM-1'],
    level: 'documented',
    needs: [],
    tags: [],
    premises: ['list.item-key', 'webhooks.secret-field'],
    run,
  });

describe('the runner caps what rests on an unestablished premise', () => {
  it('a documented finding after consulting an unconfirmed premise warns and names it with what was sent and seen', async () => {
    const result = await runCheck(
      check(async (ctx) => {
        ctx.refutePremise('webhooks.secret-field', { sent: 'POST /v1/webhooks', seen: '201 {"token":"x"}' });
        ctx.fail('DOC-1', 'broken', 'detail');
      }),
      services(),
      none,
    );
    expect(result.result).toBe('warn');
    expect(result.failures[0]).toMatchObject({
      severity: 'warn',
      unconfirmedPremises: [expect.objectContaining({ id: 'webhooks.secret-field', status: 'refuted' })],
    });
    expect(result.failures[0]!.message).toMatch(
      /Not a documented failure[\s\S]*webhooks\.secret-field[\s\S]*sent POST \/v1\/webhooks; saw 201/,
    );
  });

  it('is safe by default: a finding rests on every premise consulted before it, even one the check forgot to name', async () => {
    const result = await runCheck(
      check(async (ctx) => {
        await ctx.premise('list.item-key'); // no discoverer here: the simulator's choice, unconfirmed
        ctx.fail('DOC-1', 'after', 'rests on the list key');
      }),
      services(),
      none,
    );
    expect(result.failures[0]!.severity).toBe('warn');
  });

  it('a finding recorded before the premise was consulted, or naming none, stays a documented failure', async () => {
    const result = await runCheck(
      check(async (ctx) => {
        ctx.fail('DOC-1', 'before', 'no premise yet');
        await ctx.premise('list.item-key');
        ctx.fail('DOC-2', 'independent', 'says so', undefined, { premises: [] });
      }),
      services(),
      none,
    );
    expect(result.failures.map((f) => f.severity)).toEqual(['fail', 'fail']);
  });

  it('a discovered or declared premise carries a documented verdict', async () => {
    const discovered = await runCheck(
      check(async (ctx) => {
        await ctx.premise('list.item-key');
        ctx.fail('DOC-1', 'broken', 'detail');
      }),
      services({ 'list.item-key': async () => ({ kind: 'discovered', value: 'items', evidence: [{ sent: 'GET', seen: '200' }] }) }),
      none,
    );
    expect(discovered.result).toBe('fail');
    const declared = await runCheck(
      check(async (ctx) => {
        await ctx.premise('list.item-key');
        ctx.fail('DOC-1', 'broken', 'detail');
      }),
      services({}, { 'list.item-key': 'records' }),
      none,
    );
    expect(declared.result).toBe('fail');
  });

  it('refuses a premise the check does not declare: a defect of the check, so an error, never a verdict on the target', async () => {
    const result = await runCheck(
      check(async (ctx) => void (await ctx.premise('api-keys.limit'))),
      services(),
      none,
    );
    expect(result.result).toBe('error');
    expect(result.failures).toEqual([]);
    expect(result.error?.message).toMatch(/does not declare/);
  });
});

describe('judged requirements', () => {
  it('a cited requirement the check never judged is not-exercised in the matrix, never pass', async () => {
    const result = await runCheck(
      check(async (ctx) => {
        ctx.expect(true, 'DOC-1', 'holds', 'never shown');
        ctx.judged('ASM-1');
      }),
      services(),
      none,
    );
    expect(result.result).toBe('pass');
    expect(result.judged).toEqual(['DOC-1', 'ASM-1']);
    const rows = Object.fromEntries(buildTraceability(catalogue, [result]).map((row) => [row.requirement.id, row.result]));
    expect(rows).toEqual({ 'DOC-1': 'pass', 'DOC-2': 'not-exercised', 'ASM-1': 'pass' });
  });

  it('a passing setup step judges nothing', async () => {
    const result = await runCheck(
      check(async (ctx) => void ctx.expect(true, 'DOC-2', 'Setup: create', 'x')),
      services(),
      none,
    );
    expect(result.judged).toEqual([]);
  });
});

describe('the premise book', () => {
  const env = {
    api: null as never,
    resolve: async () => undefined as never,
    candidate: () => undefined as never,
    now: () => 0,
    secret: () => {},
    once: <T>(_: string, make: () => Promise<T>) => make(),
  };

  it('discovers first, then takes the declaration, then the simulator’s choice, and records each', async () => {
    const inconclusive: Discoverers = { 'list.item-key': async () => ({ kind: 'inconclusive', evidence: [{ sent: 'GET', seen: '500' }] }) };
    expect((await new PremiseBook(inconclusive, { 'list.item-key': 'rows' }).resolve('list.item-key', env, 'c')).status).toBe('declared');
    const fallback = new PremiseBook(inconclusive);
    expect(await fallback.resolve('list.item-key', env, 'c')).toMatchObject({ status: 'assumed', value: 'data' });
    expect(fallback.isEstablished('list.item-key')).toBe(false);
    const found = new PremiseBook(
      { 'list.item-key': async () => ({ kind: 'discovered', value: 'items', evidence: [] }) },
      { 'list.item-key': 'rows' },
    );
    const state = await found.resolve('list.item-key', env, 'c');
    expect(state).toMatchObject({ status: 'discovered', value: 'items' });
    expect(state.evidence.at(-1)?.seen).toMatch(/declared "rows"; the implementation shows "items"/);
    expect(found.records()).toEqual([expect.objectContaining({ id: 'list.item-key', status: 'discovered', checks: ['c'] })]);
  });

  it('discovers once per run, however many checks ask at once', async () => {
    let calls = 0;
    const book = new PremiseBook({ 'list.item-key': async () => ({ kind: 'discovered', value: `v${++calls}`, evidence: [] }) });
    const states = await Promise.all([book.resolve('list.item-key', env, 'a'), book.resolve('list.item-key', env, 'b')]);
    expect(calls).toBe(1);
    expect(states.map((s) => s.value)).toEqual(['v1', 'v1']);
  });
});

describe('the implementation profile', () => {
  it('maps its keys to premises (minimums over the simulator’s for the rest)', () => {
    const declared = declarationsOf({
      listItemKey: 'items',
      minimumAmounts: { USD: '10.00' },
      apiKeys: { expiringBody: { name: '{name}', expiresAt: '{expiresAt}' } },
    });
    expect(declared['list.item-key']).toBe('items');
    expect(declared['payments.minimum-amounts']).toMatchObject({ USD: '10.00', EUR: '1' });
    expect(declared['api-keys.expiring-body']).toEqual({ name: '{name}', expiresAt: '{expiresAt}' });
  });

  it('refuses an unknown key, a bad value and a body without the placeholder it needs, with the path', () => {
    expect(profileProblems({ apiKeys: { colour: 'blue' } })).toEqual([
      { path: ['apiKeys', 'colour'], message: expect.stringMatching(/unknown key "colour" \(known: createBody/) },
    ]);
    expect(profileProblems({ minimumAmounts: { USD: '1.005' } })[0]!.path).toEqual(['minimumAmounts', 'USD']);
    expect(profileProblems({ apiKeys: { expiringBody: { name: '{name}' } } })).toEqual([
      { path: ['apiKeys', 'expiringBody'], message: 'the body must use {expiresAt} or {expiresInDays}' },
    ]);
    expect(profileProblems({ webhooks: { createBody: { url: '{link}' } } })[0]!.message).toMatch(/unknown placeholder \{link\}/);
  });

  it('names the file and the line of a problem in a profile file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    const file = join(dir, 'profile.yaml');
    writeFileSync(file, 'listItemKey: items\napiKeys:\n  limit: 5\n  colour: blue\n');
    expect(() => readProfileFile(file)).toThrow(`${file}:4: profile.apiKeys.colour: unknown key "colour"`);
    writeFileSync(file, 'webhooks:\n  testWithApiKey: false\n');
    expect(readProfileFile(file)).toEqual({ webhooks: { testWithApiKey: false } });
  });
});

describe('body templates', () => {
  it('fill whole placeholders with values, inline ones as text, and leave out what has no value', () => {
    const template = { name: 'key {name}', expiresAt: '{expiresAt}', whitelist: ['{ipWhitelist}'], nested: { enabled: '{enabled}' } };
    expect(fillTemplate(template, { name: 'a', expiresAt: null, ipWhitelist: ['1.2.3.4'], enabled: false })).toEqual({
      name: 'key a',
      expiresAt: null,
      whitelist: [['1.2.3.4']],
      nested: { enabled: false },
    });
    expect(fillTemplate({ url: '{url}', enabled: '{enabled}' }, { enabled: true })).toEqual({ enabled: true });
    expect(placeholdersOf(template)).toEqual(['enabled', 'expiresAt', 'ipWhitelist', 'name']);
  });
});

describe('docs/implementers.md', () => {
  const guide = readFileSync(new URL('../../docs/implementers.md', import.meta.url), 'utf8');

  it('names every variable a started target gets and every key of the profile', () => {
    for (const { name } of TARGET_ENVIRONMENT)
      for (const variable of name.match(/[A-Z][A-Z0-9_<>a-zA-Z]+/g) ?? []) expect(guide, variable).toContain(variable);
    for (const id of PREMISE_IDS) expect(guide, PREMISES[id].profileKey).toContain(PREMISES[id].profileKey.split('.').at(-1)!);
  });
});
