// The requirement catalogue: every normative statement of the specification and every assumed
// decision, each with a stable ID that checks cite and reports trace back to.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { requirementsPath } from './paths.ts';

export type RequirementLevel = 'documented' | 'assumed';

export interface Requirement {
  /** Stable ID, e.g. `PAY-CREATE-AMOUNT-DECIMALS`. */
  id: string;
  /** Section of the specification (or `Control API`) the statement belongs to. */
  section: string;
  /** What must hold, in our words. */
  statement: string;
  /** `documented`: the specification states it. `assumed`: our choice where it is silent. */
  level: RequirementLevel;
  tags: string[];
}

export const REQUIREMENT_LEVELS: readonly RequirementLevel[] = ['documented', 'assumed'];

/** The ID prefixes in use; an ID is PREFIX-WORD(-WORD)* in upper case. */
export const REQUIREMENT_PREFIXES = [
  'PAY',
  'FEE',
  'STATE',
  'LIST',
  'ERR',
  'AUTH',
  'KEY',
  'WH',
  'RL',
  'CHAIN',
  'CUR',
  'FMT',
  'ANL',
  'TXN',
  'PAYOUT',
  'WEB3',
  'VER',
  'CTL',
  'PAGE',
] as const;

export const REQUIREMENT_ID_PATTERN = new RegExp(`^(${REQUIREMENT_PREFIXES.join('|')})(-[A-Z0-9]+)+$`);

export class CatalogueError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid requirement catalogue:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CatalogueError';
    this.problems = problems;
  }
}

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Parses and validates catalogue YAML; throws CatalogueError listing every problem found. */
export function parseCatalogue(text: string): Requirement[] {
  const data: unknown = parse(text);
  if (!Array.isArray(data)) throw new CatalogueError(['the catalogue must be a YAML list of requirements']);
  const problems: string[] = [];
  const seen = new Set<string>();
  const requirements: Requirement[] = [];
  data.forEach((entry: unknown, index) => {
    const where = `entry ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: not a mapping`);
      return;
    }
    const { id, section, statement, level, tags, ...rest } = entry as Record<string, unknown>;
    const label = isNonEmptyString(id) ? `${where} (${id})` : where;
    if (!isNonEmptyString(id) || !REQUIREMENT_ID_PATTERN.test(id)) problems.push(`${label}: id must match ${REQUIREMENT_ID_PATTERN}`);
    else if (seen.has(id)) problems.push(`${label}: duplicate id`);
    else seen.add(id);
    if (!isNonEmptyString(section)) problems.push(`${label}: section must be a non-empty string`);
    if (!isNonEmptyString(statement)) problems.push(`${label}: statement must be a non-empty string`);
    if (!REQUIREMENT_LEVELS.includes(level as RequirementLevel)) problems.push(`${label}: level must be documented or assumed`);
    if (!Array.isArray(tags) || tags.length === 0 || !tags.every(isNonEmptyString))
      problems.push(`${label}: tags must be a non-empty list of strings`);
    const unknownKeys = Object.keys(rest);
    if (unknownKeys.length > 0) problems.push(`${label}: unknown keys ${unknownKeys.join(', ')}`);
    requirements.push({ id, section, statement, level, tags } as Requirement);
  });
  if (problems.length > 0) throw new CatalogueError(problems);
  return requirements;
}

let cache: { list: readonly Requirement[]; byId: ReadonlyMap<string, Requirement> } | undefined;

function load(): NonNullable<typeof cache> {
  if (!cache) {
    const list = parseCatalogue(readFileSync(requirementsPath, 'utf8')).map((r) =>
      Object.freeze({ ...r, tags: Object.freeze([...r.tags]) as string[] }),
    );
    cache = { list: Object.freeze(list), byId: new Map(list.map((r) => [r.id, r])) };
  }
  return cache;
}

/** Every requirement, in catalogue order. Entries are frozen; the array is a fresh copy. */
export function loadCatalogue(): Requirement[] {
  return [...load().list];
}

/** The requirement with this ID, or undefined. */
export function requirementById(id: string): Requirement | undefined {
  return load().byId.get(id);
}
