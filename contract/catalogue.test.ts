// The requirement catalogue is well formed, and the contract documents cite only IDs it defines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CatalogueError, loadCatalogue, parseCatalogue, REQUIREMENT_ID_PATTERN, requirementById } from './catalogue.ts';
import { controlApiPath, openapiPath } from './paths.ts';

/** Every `x-requirements` list in a parsed (not dereferenced) document, with where it sits. */
function citedIds(document: unknown): { id: string; where: string }[] {
  const cited: { id: string; where: string }[] = [];
  const visit = (node: unknown, where: string): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-requirements') {
        expect(Array.isArray(value), `${where}/x-requirements must be a list`).toBe(true);
        for (const id of value as unknown[]) cited.push({ id: String(id), where });
      } else {
        visit(value, `${where}/${key}`);
      }
    }
  };
  visit(document, '#');
  return cited;
}

describe('requirement catalogue', () => {
  const catalogue = loadCatalogue();

  it('has unique, well-formed IDs, valid levels, sections, statements and tags', () => {
    const ids = catalogue.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of catalogue) {
      expect(r.id).toMatch(REQUIREMENT_ID_PATTERN);
      expect(['documented', 'assumed']).toContain(r.level);
      expect(r.section.trim()).not.toBe('');
      expect(r.statement.trim().length).toBeGreaterThan(10);
      expect(r.tags.length).toBeGreaterThan(0);
    }
  });

  it('covers the specification broadly (sizes and key IDs)', () => {
    const documented = catalogue.filter((r) => r.level === 'documented');
    const assumed = catalogue.filter((r) => r.level === 'assumed');
    expect(documented.length).toBeGreaterThanOrEqual(190);
    expect(assumed.length).toBeGreaterThanOrEqual(100);
    for (const id of [
      'PAY-CREATE-AMOUNT-DECIMALS',
      'PAY-FEE-SERVICE-RATE',
      'PAY-STATE-ACTIVE-TO-CANCELLED',
      'ERR-401-ALL',
      'WH-SIGN-HMAC',
      'WH-RETRY-ATTEMPT-3',
      'RL-HEADERS-EVERY-RESPONSE',
      'LIST-LIMIT-MAX',
      'CHAIN-BASE-TOKENS',
      'AUTH-KEY-PREFIX',
      'VER-PATH-PREFIX-V1',
    ]) {
      expect(requirementById(id), id).toBeDefined();
    }
    // One entry per retry row, per event type, per Payment field and per chain row.
    for (let attempt = 1; attempt <= 7; attempt++) expect(requirementById(`WH-RETRY-ATTEMPT-${attempt}`)).toBeDefined();
    expect(catalogue.filter((r) => r.id.startsWith('WH-EVENT-'))).toHaveLength(13);
    expect(catalogue.filter((r) => r.id.startsWith('PAY-FIELD-'))).toHaveLength(25);
    expect(documented.filter((r) => /^CHAIN-[A-Z]+-TOKENS$/.test(r.id))).toHaveLength(5);
  });

  it('answers lookups and protects its entries', () => {
    expect(requirementById('NOPE-NOT-HERE')).toBeUndefined();
    const first = loadCatalogue()[0]!;
    expect(Object.isFrozen(first)).toBe(true);
    expect(loadCatalogue()).not.toBe(loadCatalogue());
  });

  it.each([
    ['openapi.yaml', openapiPath],
    ['conformance/control-api.yaml', controlApiPath],
  ])('defines every ID that %s cites in x-requirements', (_name, path) => {
    const cited = citedIds(parse(readFileSync(path, 'utf8')));
    expect(cited.length).toBeGreaterThan(20);
    const unknown = cited.filter(({ id }) => !requirementById(id)).map(({ id, where }) => `${id} at ${where}`);
    expect(unknown).toEqual([]);
  });

  it('rejects malformed catalogues with every problem listed', () => {
    const bad = [
      '- {id: PAY-OK, section: "§1", level: documented, tags: [a], statement: "A valid statement."}',
      '- {id: PAY-OK, section: "§1", level: documented, tags: [a], statement: "Duplicate id here."}',
      '- {id: bad-id, section: "§1", level: maybe, tags: [], statement: ""}',
      '- {id: WH-X, section: "§6", level: assumed, tags: [b], statement: "Has an extra key.", extra: 1}',
    ].join('\n');
    let error: unknown;
    try {
      parseCatalogue(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CatalogueError);
    const problems = (error as CatalogueError).problems.join('\n');
    expect(problems).toMatch(/duplicate id/);
    expect(problems).toMatch(/id must match/);
    expect(problems).toMatch(/level must be/);
    expect(problems).toMatch(/tags must be/);
    expect(problems).toMatch(/statement must be/);
    expect(problems).toMatch(/unknown keys extra/);
    expect(() => parseCatalogue('just: a mapping')).toThrow(CatalogueError);
  });
});
