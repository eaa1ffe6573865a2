import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@stablepay/contract/catalogue';
import { ALL_CHECKS } from './checks/index.ts';
import { CheckRegistry, defineCheck, matchesSelector, selectChecks, unknownSelectors } from './registry.ts';
import type { Check } from './check.ts';

const catalogue = new Map(loadCatalogue().map((r) => [r.id, r]));
const noop: Check['run'] = async () => {};

describe('the registered checks', () => {
  it('cite only requirement IDs that exist in the catalogue', () => {
    const unknown = ALL_CHECKS.flatMap((c) => c.requirements.filter((id) => !catalogue.has(id)).map((id) => `${c.id}: ${id}`));
    expect(unknown).toEqual([]);
  });

  it('declare a level that matches what they cite', () => {
    for (const check of ALL_CHECKS) {
      const levels = new Set(check.requirements.map((id) => catalogue.get(id)?.level));
      const expected = levels.has('documented') ? 'documented' : 'assumed';
      expect(check.level, check.id).toBe(expected);
    }
  });

  it('have unique ids, titles and known capabilities', () => {
    const registry = new CheckRegistry(ALL_CHECKS);
    expect(registry.all()).toHaveLength(ALL_CHECKS.length);
    expect(new Set(ALL_CHECKS.map((c) => c.title)).size).toBe(ALL_CHECKS.length);
  });

  it('cover every area the issue asks for', () => {
    const areas = new Set(ALL_CHECKS.map((c) => c.id.split('.')[0]));
    for (const area of ['auth', 'create', 'fees', 'external-id', 'lifecycle', 'pagination', 'webhooks', 'rate-limit', 'response']) {
      expect(areas.has(area), area).toBe(true);
    }
  });

  it('mark the slow check so it can be skipped', () => {
    expect(selectChecks(ALL_CHECKS, [], ['slow']).skipped.map((s) => s.check.id)).toEqual(['webhooks.slow-receiver-timeout']);
  });
});

describe('defineCheck', () => {
  const base = { title: 't', requirements: ['ERR-401-ALL'], level: 'documented' as const, needs: [], tags: [], run: noop };

  it('refuses malformed ids, missing requirements and unknown capabilities', () => {
    expect(() => defineCheck({ ...base, id: 'NoDot' })).toThrow(/kebab-case/);
    expect(() => defineCheck({ ...base, id: 'a.b', requirements: [] })).toThrow(/cites no requirement/);
    expect(() => defineCheck({ ...base, id: 'a.b', needs: ['teleport' as never] })).toThrow(/unknown capability/);
  });

  it('tags a check with its area', () => {
    expect(defineCheck({ ...base, id: 'auth.x' }).tags).toContain('auth');
  });

  it('refuses duplicate registrations', () => {
    const check = defineCheck({ ...base, id: 'a.b' });
    expect(() => new CheckRegistry([check, check])).toThrow(/duplicate/);
  });
});

describe('selection by --only / --skip', () => {
  const checks = [
    defineCheck({
      id: 'auth.one',
      title: '1',
      requirements: ['ERR-401-ALL'],
      level: 'documented',
      needs: [],
      tags: ['security'],
      run: noop,
    }),
    defineCheck({
      id: 'fees.two',
      title: '2',
      requirements: ['PAY-FEE-SUM-IDENTITY'],
      level: 'documented',
      needs: [],
      tags: ['property'],
      run: noop,
    }),
    defineCheck({
      id: 'webhooks.three',
      title: '3',
      requirements: ['WH-SIGN-HMAC'],
      level: 'documented',
      needs: [],
      tags: ['slow'],
      run: noop,
    }),
  ];

  it('matches ids, prefixes with and without .*, tags and requirement ids', () => {
    expect(matchesSelector(checks[0]!, 'auth.one')).toBe(true);
    expect(matchesSelector(checks[0]!, 'auth')).toBe(true);
    expect(matchesSelector(checks[0]!, 'auth.*')).toBe(true);
    expect(matchesSelector(checks[0]!, 'security')).toBe(true);
    expect(matchesSelector(checks[0]!, 'ERR-401-ALL')).toBe(true);
    expect(matchesSelector(checks[0]!, 'aut')).toBe(false);
  });

  it('skips what is filtered and says why', () => {
    const { selected, skipped } = selectChecks(checks, ['auth', 'webhooks'], ['slow']);
    expect(selected.map((c) => c.id)).toEqual(['auth.one']);
    expect(skipped.map((s) => [s.check.id, s.reason])).toEqual([
      ['fees.two', 'not selected by --only auth,webhooks'],
      ['webhooks.three', 'excluded by --skip slow'],
    ]);
  });

  it('reports selectors that match nothing', () => {
    expect(unknownSelectors(checks, ['auth', 'atuh'])).toEqual(['atuh']);
  });
});
